import { spawnSync } from 'node:child_process';
import type { BubblewrapFeatures } from './bwrap-args.js';

/** How a command is run, from strongest to weakest. */
export type IsolationKind = 'bubblewrap' | 'pid-namespace' | 'none';

/** What the sandbox can guarantee about commands on this host, for headers and logs. */
export interface IsolationDescription {
  /** The mode commands run in: bubblewrap, only an own PID namespace, or a plain process group. */
  mode: IsolationKind;
  /**
   * Whether the whole process tree of a command dies with the call and with the host (also on a
   * SIGKILL of the host). True for bubblewrap and the PID-namespace fallback; false for `none`,
   * where daemons are only swept by an environment marker (best effort).
   */
  killsTree: boolean;
  /** Why a stronger mode is not used, when it is not. */
  reason?: string;
  /** Per-command resource bounds in force (see `resource-limits.ts`). */
  limits: string;
}

const probes = new Map<string, unknown>();

function probeOnce<T>(key: string, run: () => T): T {
  if (!probes.has(key)) probes.set(key, run());
  return probes.get(key) as T;
}

function failure(binary: string, run: ReturnType<typeof spawnSync>): string | undefined {
  if (run.error !== undefined)
    return `${binary} could not be started (${(run.error as NodeJS.ErrnoException).code ?? run.error.message})`;
  if (run.status !== 0) return `${binary} failed: ${run.stderr?.toString('utf8').trim() || `exit ${String(run.status)}`}`;
  return undefined;
}

function tryBwrap(binary: string, extra: string[]): ReturnType<typeof spawnSync> {
  return spawnSync(
    binary,
    [
      ...extra,
      '--cap-drop',
      'ALL',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      '--unshare-pid',
      '--unshare-net',
      '--unshare-ipc',
      '--unshare-uts',
      '--die-with-parent',
      '--',
      'true',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 },
  );
}

/**
 * Which hardening flags this bubblewrap accepts, or the reason it is not usable at all (it may be
 * installed but blocked, e.g. without user namespaces). Probed once per binary.
 */
export function bubblewrapProbe(binary: string): { features: BubblewrapFeatures } | { problem: string } {
  return probeOnce(`bwrap:${binary}`, () => {
    const full = tryBwrap(binary, ['--unshare-user', '--disable-userns']);
    if (failure(binary, full) === undefined) return { features: { userNamespace: true, disableUserns: true } };
    const userns = tryBwrap(binary, ['--unshare-user']);
    if (failure(binary, userns) === undefined) return { features: { userNamespace: true, disableUserns: false } };
    const plain = tryBwrap(binary, []);
    const problem = failure(binary, plain);
    return problem === undefined ? { features: { userNamespace: false, disableUserns: false } } : { problem };
  });
}

/** Whether bubblewrap works here: undefined when it does, else the reason. */
export function bubblewrapProblem(binary: string): string | undefined {
  const probe = bubblewrapProbe(binary);
  return 'problem' in probe ? probe.problem : undefined;
}

/**
 * The first process of the PID namespace, between `unshare` and the command. The kernel drops
 * signals from outside a PID namespace to its first process unless that process handles them, so
 * a command running as PID 1 (`bash -c 'a; b'`) would ignore the timeout's SIGTERM and go on to
 * `b` until SIGKILL at the end of the grace. Like bubblewrap's own init, this one handles TERM,
 * INT and HUP (a handler, not SIG_IGN, so the command does not inherit an ignored signal), lets the
 * command — now an ordinary process of the group — receive the signal itself, and exits with its
 * status (128 + N when a signal ended it; the PID 1 of a namespace cannot die by a signal it sends itself).
 */
export const PID_NAMESPACE_INIT = [
  '/bin/sh',
  '-c',
  'trap : TERM INT HUP; "$@" & child=$!; ' +
    'while :; do wait "$child"; status=$?; kill -0 "$child" 2>/dev/null || exit "$status"; done',
  'aibuddy-init',
] as const;

/**
 * The command prefix that runs a command in its own PID namespace, so the whole tree dies with
 * it: `setpriv --pdeathsig KILL` makes `unshare` die with the host (even on SIGKILL of the host),
 * `--kill-child` makes the namespace's first process die with `unshare`, and the kernel kills
 * every other process of a PID namespace when its first one ends. Non-root hosts need a user
 * namespace for that (mapped to the same uid, so files keep their owner). Undefined, with the
 * reason, when the OS allows none of it.
 */
export function pidNamespacePrefix(): { prefix: string[] } | { problem: string } {
  return probeOnce('unshare', () => {
    const base = ['setpriv', '--pdeathsig', 'KILL', '--', 'unshare', '--pid', '--fork', '--kill-child', '--mount-proc'];
    const variants =
      process.getuid?.() === 0
        ? [[]]
        : [
            ['--user', '--map-current-user'],
            ['--user', '--map-root-user'],
          ];
    let problem = 'util-linux setpriv/unshare not usable';
    for (const extra of variants) {
      const prefix = [...base, ...extra, '--'];
      const run = spawnSync(prefix[0]!, [...prefix.slice(1), 'true'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
      const why = failure('unshare', run);
      if (why === undefined) return { prefix };
      problem = why;
    }
    return { problem };
  });
}
