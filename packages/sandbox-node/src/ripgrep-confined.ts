import { spawnSync } from 'node:child_process';
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';

/** How ripgrep is started: the program, its leading arguments and its environment. */
export interface ConfinedRipgrep {
  /** bubblewrap binary. */
  readonly file: string;
  /** bubblewrap arguments up to and including the ripgrep binary; rg's own arguments follow. */
  readonly prefix: readonly string[];
  /** Environment of the confined ripgrep. */
  readonly env: Record<string, string>;
}

interface Probed {
  binary: string;
  libs: string[];
  env: Record<string, string>;
}

const cache = new Map<string, Probed | string>();

function findOnPath(binary: string): string | undefined {
  if (isAbsolute(binary) || binary.includes('/')) return binary;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, binary);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return undefined;
}

/** The shared libraries `ldd` lists for a binary (none for a static one). */
function sharedLibraries(binary: string): string[] | undefined {
  const run = spawnSync('ldd', [binary], { encoding: 'utf8', timeout: 5000 });
  if (run.error) return undefined;
  if (run.status !== 0) return /not a dynamic executable|statically linked/.test(`${run.stdout}${run.stderr}`) ? [] : undefined;
  const libs = new Set<string>();
  for (const line of run.stdout.split('\n')) {
    const m = /=>\s+(\/\S+)\s+\(/.exec(line) ?? /^\s*(\/\S+)\s+\(/.exec(line);
    if (m) libs.add(m[1]!);
  }
  return [...libs];
}

/**
 * How to run ripgrep so that no symlink swap can make it read outside the workspace: inside a
 * bubblewrap mount namespace whose only contents are the ripgrep binary, the shared libraries it
 * loads (read-only, public system files) and the workspace root (read-only, at its real path).
 * ripgrep walks by path strings, so on the host a folder swapped for a symlink between its
 * `readdir` and its `open` would be followed; in this namespace whatever such a link names does
 * not exist, so there is nothing outside to read. No network, no capabilities, its own PID
 * namespace (killing bubblewrap ends it), dies with the host.
 *
 * Returns the reason as a string when this is not possible (bubblewrap or ripgrep missing or
 * blocked); the caller then uses the JavaScript engine, whose walk holds descriptors instead.
 * Probed once per (ripgrep, bubblewrap) pair (a blocking `spawnSync`, so only once) and cached.
 */
export function confinedRipgrep(rg: string, bwrap: string, rootReal: string): ConfinedRipgrep | string {
  const key = `${rg}\0${bwrap}`;
  let probed = cache.get(key);
  if (probed === undefined) {
    probed = probe(rg, bwrap);
    cache.set(key, probed);
  }
  if (typeof probed === 'string') return probed;
  return {
    file: bwrap,
    prefix: [...basePrefix(probed), '--ro-bind', rootReal, rootReal, '--chdir', rootReal, probed.binary],
    env: probed.env,
  };
}

function basePrefix(probed: Probed): string[] {
  const prefix = ['--unshare-pid', '--unshare-ipc', '--unshare-uts', '--cap-drop', 'ALL', '--die-with-parent', '--new-session'];
  prefix.push('--ro-bind', probed.binary, probed.binary);
  for (const lib of probed.libs) prefix.push('--ro-bind', lib, lib);
  return prefix;
}

function probe(rg: string, bwrap: string): Probed | string {
  const found = findOnPath(rg);
  if (found === undefined) return `${rg} was not found on PATH`;
  let binary: string;
  try {
    binary = realpathSync(found);
  } catch {
    return `${rg} was not found`;
  }
  const libs = sharedLibraries(binary);
  if (libs === undefined) return `could not list the shared libraries of ${binary} (is ldd installed?)`;
  const env = { PATH: '/usr/bin:/bin', LD_LIBRARY_PATH: [...new Set(libs.map((l) => dirname(l)))].join(':') };
  const probed: Probed = { binary, libs, env };
  const run = spawnSync(bwrap, [...basePrefix(probed), binary, '--version'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
    timeout: 10_000,
    encoding: 'utf8',
  });
  if (run.error) return `${bwrap} could not be started (${(run.error as NodeJS.ErrnoException).code ?? run.error.message})`;
  if (run.status !== 0 || !/ripgrep/.test(run.stdout)) {
    return `ripgrep does not run under ${bwrap}: ${(run.stderr || `exit ${String(run.status)}`).trim().slice(0, 300)}`;
  }
  return probed;
}
