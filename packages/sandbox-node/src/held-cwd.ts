import type { ExecOptions } from '@aibuddy/sandbox';

const HELD_CWD = Symbol.for('aibuddy.sandbox-node.heldCwd');

/**
 * Attaches the held working folder (`/proc/self/fd/<fd>`) to a command's options, for `spawn`'s
 * `cwd`: the child's chdir then goes through its own inherited copy of that descriptor, so no
 * swap of a folder on the way can move it. Carried on the options (not a new parameter) so the
 * exec plumbing passes it along unchanged.
 */
export function withHeldCwd(options: ExecOptions | undefined, heldPath: string): ExecOptions {
  return { ...options, [HELD_CWD]: heldPath } as ExecOptions;
}

/** The folder `spawn` changes into: the held one when attached, else the given path. */
export function spawnCwd(options: ExecOptions | undefined, fallback: string): string {
  const held = (options as Record<symbol, unknown> | undefined)?.[HELD_CWD];
  return typeof held === 'string' ? held : fallback;
}
