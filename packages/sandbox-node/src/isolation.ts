import { spawnSync } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';

let probe: Map<string, string | undefined> | undefined;

/**
 * Whether bubblewrap can actually create the namespaces we use here (it may be installed but
 * blocked, e.g. without user namespaces). Returns undefined when it works, else the reason.
 * Probed once per binary.
 */
export function bubblewrapProblem(binary: string): string | undefined {
  probe ??= new Map();
  if (probe.has(binary)) return probe.get(binary);
  const run = spawnSync(
    binary,
    ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--die-with-parent', '--', 'true'],
    { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 },
  );
  const problem =
    run.error !== undefined
      ? `${binary} could not be started (${(run.error as NodeJS.ErrnoException).code ?? run.error.message})`
      : run.status !== 0
        ? `${binary} failed: ${run.stderr?.toString('utf8').trim() || `exit ${String(run.status)}`}`
        : undefined;
  probe.set(binary, problem);
  return problem;
}

function existsNoFollow(path: string): 'dir' | 'file' | undefined {
  try {
    const stat = lstatSync(path);
    return stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

/**
 * bubblewrap arguments: the whole host read-only, a private /tmp, fresh /dev and /proc, the
 * root's parent folder replaced by an empty one, the workspace root bound writable at its own path, `.git/hooks` and `.git/config` bound read-only
 * again on top (so a command cannot plant a hook or a `core.hooksPath` that runs later outside
 * the sandbox), no network, its own PID namespace (so `setsid` daemons die with it), and it dies
 * with its parent.
 */
export function bubblewrapArgs(rootReal: string, cwdReal: string): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // Hide the root's siblings (an empty tmpfs over its parent), so `cat ../secret` finds nothing:
  // path checks cannot stop a shell, this can. The rest of the host stays visible read-only.
  const parent = dirname(rootReal);
  if (parent !== '/' && parent !== '/tmp' && parent !== rootReal) args.push('--tmpfs', parent);
  args.push('--bind', rootReal, rootReal);
  for (const sub of ['.git/hooks', '.git/config']) {
    const abs = join(rootReal, sub);
    if (existsNoFollow(abs)) args.push('--ro-bind', abs, abs);
  }
  args.push('--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--die-with-parent');
  args.push('--chdir', cwdReal);
  return args;
}
