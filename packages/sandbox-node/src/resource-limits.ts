import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ResourceLimits } from './config.js';

/**
 * Processes (and threads) one command may run at once: far above what `make -j`, test runners
 * and language servers start (tens to a few hundred), far below what exhausts the host's pid
 * space; a fork bomb stops here. Enforced per command by a `pids` cgroup where one can be made,
 * else by RLIMIT_NPROC (which counts every process of the host user, so it is raised by the
 * user's current count, and which the kernel does not apply to root).
 */
export const DEFAULT_MAX_PROCESSES = 1024;
/**
 * Data memory per process (RLIMIT_DATA: heap and private writable mappings, not reserved address
 * space, so V8 and the JVM still start): 2 GiB lets compilers and bundlers work and stops a
 * runaway allocation long before it pushes the host into swap or the OOM killer.
 */
export const DEFAULT_MAX_MEMORY_BYTES = 2 * 1024 ** 3;
/** Largest file a command may write (RLIMIT_FSIZE): 4 GiB, so `yes > f` cannot fill the disk unnoticed. */
export const DEFAULT_MAX_FILE_BYTES = 4 * 1024 ** 3;
/** Open files per process (RLIMIT_NOFILE): 8,192 covers file watchers and servers; the host's table stays free. */
export const DEFAULT_MAX_OPEN_FILES = 8192;

/** The limits in force, `false` meaning "not limited". */
export interface EffectiveLimits {
  processes: number | false;
  memoryBytes: number | false;
  fileSizeBytes: number | false;
  openFiles: number | false;
}

function limit(value: number | false | undefined, fallback: number, name: string): number | false {
  if (value === undefined) return fallback;
  if (value === false) return false;
  if (!(Number.isSafeInteger(value) && value > 0)) {
    throw new RangeError(`${name} must be a positive integer or false (got ${String(value)}).`);
  }
  return value;
}

/** Fills in the defaults; throws a RangeError naming the bad field. */
export function effectiveLimits(config: ResourceLimits | false | undefined): EffectiveLimits {
  if (config === false) return { processes: false, memoryBytes: false, fileSizeBytes: false, openFiles: false };
  return {
    processes: limit(config?.processes, DEFAULT_MAX_PROCESSES, 'resourceLimits.processes'),
    memoryBytes: limit(config?.memoryBytes, DEFAULT_MAX_MEMORY_BYTES, 'resourceLimits.memoryBytes'),
    fileSizeBytes: limit(config?.fileSizeBytes, DEFAULT_MAX_FILE_BYTES, 'resourceLimits.fileSizeBytes'),
    openFiles: limit(config?.openFiles, DEFAULT_MAX_OPEN_FILES, 'resourceLimits.openFiles'),
  };
}

let prlimitOk: boolean | undefined;

/** Whether util-linux `prlimit` can run a command here. */
export function prlimitAvailable(): boolean {
  prlimitOk ??= spawnSync('prlimit', ['--nofile=64', '--', 'true'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
  return prlimitOk;
}

/** How many processes the host user runs now (RLIMIT_NPROC counts them all). */
function userProcessCount(): number {
  const uid = process.getuid?.();
  let count = 0;
  try {
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        if (statSync(`/proc/${name}`).uid === uid) count++;
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    return 0;
  }
  return count;
}

/**
 * The `prlimit` prefix (soft = hard, so the command cannot raise them without CAP_SYS_RESOURCE,
 * which no confined command has). `nprocByRlimit` is false when a cgroup bounds processes.
 */
export function prlimitPrefix(limits: EffectiveLimits, nprocByRlimit: boolean): string[] {
  const args: string[] = [];
  if (limits.memoryBytes !== false) args.push(`--data=${limits.memoryBytes}`);
  if (limits.fileSizeBytes !== false) args.push(`--fsize=${limits.fileSizeBytes}`);
  if (limits.openFiles !== false) args.push(`--nofile=${limits.openFiles}`);
  if (limits.processes !== false && nprocByRlimit && process.getuid?.() !== 0) {
    args.push(`--nproc=${userProcessCount() + limits.processes}`);
  }
  return args.length === 0 ? [] : ['prlimit', ...args, '--'];
}

/** A `pids` cgroup holding one command's tree. */
export interface PidsCgroup {
  /** The cgroup folder (its `cgroup.procs` lists every process of the command). */
  dir: string;
  /** Host pids of the processes in it now. */
  members(): number[];
  /** Removes the cgroup, waiting (bounded) until the kernel has taken its last processes out. */
  remove(): Promise<void>;
}

function pidsHierarchy(): string | undefined {
  // cgroup v1: a `pids` hierarchy of its own. (v2 needs the controller delegated to our own
  // cgroup's subtree, which containers rarely do; there the rlimit applies.)
  for (const dir of ['/sys/fs/cgroup/pids']) {
    try {
      if (statSync(join(dir, 'cgroup.procs')).isFile()) return dir;
    } catch {
      // not mounted
    }
  }
  return undefined;
}

/** How long `remove()` waits for a cgroup to empty (ms). */
const CGROUP_REMOVE_WAIT_MS = 2000;

let swept = false;

/** Removes empty cgroups left by hosts that died (SIGKILL gives them no chance to clean up). */
function sweepStale(hierarchy: string): void {
  if (swept) return;
  swept = true;
  try {
    for (const name of readdirSync(hierarchy)) {
      const match = /^aibuddy-(\d+)-[0-9a-f]+$/.exec(name);
      if (!match || Number(match[1]) === process.pid) continue;
      try {
        process.kill(Number(match[1]), 0);
      } catch {
        try {
          rmdirSync(join(hierarchy, name)); // fails (EBUSY) while anything is still in it
        } catch {
          // not empty, or not ours
        }
      }
    }
  } catch {
    // unreadable: nothing to sweep
  }
}

/** Creates a `pids` cgroup limited to `max` processes, or undefined when this host does not let us. */
export function createPidsCgroup(max: number): PidsCgroup | undefined {
  const hierarchy = pidsHierarchy();
  if (hierarchy === undefined) return undefined;
  sweepStale(hierarchy);
  const dir = join(hierarchy, `aibuddy-${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    mkdirSync(dir);
  } catch {
    return undefined;
  }
  try {
    writeFileSync(join(dir, 'pids.max'), String(max));
  } catch {
    try {
      rmdirSync(dir);
    } catch {
      // leave it
    }
    return undefined;
  }
  return {
    dir,
    members() {
      try {
        return readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
      } catch {
        return [];
      }
    },
    async remove() {
      // A killed namespace empties asynchronously: rmdir says EBUSY until then.
      const until = Date.now() + CGROUP_REMOVE_WAIT_MS;
      for (;;) {
        try {
          rmdirSync(dir);
          return;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EBUSY' || Date.now() >= until) return; // a later sweep removes it
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    },
  };
}

/**
 * The prefix that moves the command into the cgroup before anything else runs (so no child can
 * be forked outside it), then runs the rest of the command line.
 */
export function cgroupJoinPrefix(cgroup: PidsCgroup): string[] {
  return ['/bin/sh', '-c', 'echo $$ > "$0/cgroup.procs" || exit 126; exec "$@"', cgroup.dir];
}

/** One line for headers: the bounds in force. */
export function describeLimits(limits: EffectiveLimits, cgroup: boolean, prlimit: boolean): string {
  const parts: string[] = [];
  const root = process.getuid?.() === 0;
  if (limits.processes !== false) {
    parts.push(
      cgroup
        ? `${limits.processes} processes (cgroup)`
        : prlimit && !root
          ? `${limits.processes} processes (rlimit)`
          : 'processes unbounded (no cgroup; root ignores RLIMIT_NPROC)',
    );
  }
  if (prlimit) {
    if (limits.memoryBytes !== false) parts.push(`${Math.round(limits.memoryBytes / 1024 ** 2)} MiB data per process`);
    if (limits.fileSizeBytes !== false) parts.push(`${Math.round(limits.fileSizeBytes / 1024 ** 2)} MiB per file`);
    if (limits.openFiles !== false) parts.push(`${limits.openFiles} open files`);
  } else parts.push('no rlimits (prlimit missing)');
  return parts.join(', ');
}
