import { posix } from 'node:path';

/**
 * Serialises changes to one file within a run. Models issue parallel tool calls (two `edit_file`
 * calls on the same file in one step); without this, each call's read-back verification would see
 * the other's change and report a false mismatch, and the second edit could act on a stale read.
 */
export interface PathLock {
  /** Runs `task` after every earlier task on the same path has finished. */
  run<T>(path: string, task: () => Promise<T>): Promise<T>;
}

/** The key a path is locked under: workspace-relative, normalized (`./a//b` → `a/b`). */
export function lockKey(path: string, root: string): string {
  let p = path.replace(/\\/g, '/');
  if (p.startsWith(`${root}/`)) p = p.slice(root.length + 1);
  return (
    posix
      .normalize(p)
      .replace(/^(\.\/)+/, '')
      .replace(/\/+$/, '') || '.'
  );
}

/** Creates a lock table for one run. */
export function createPathLock(root: string): PathLock {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run: <T>(path: string, task: () => Promise<T>): Promise<T> => {
      const key = lockKey(path, root);
      const previous = tails.get(key) ?? Promise.resolve();
      const next = previous.then(task, task);
      const settled = next.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, settled);
      void settled.then(() => {
        if (tails.get(key) === settled) tails.delete(key);
      });
      return next;
    },
  };
}
