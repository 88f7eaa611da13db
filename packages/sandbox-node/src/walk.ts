import { opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxAbortedError } from '@aibuddy/sandbox';

/** One regular file met by the walk. */
export interface WalkEntry {
  /** Absolute real path. */
  abs: string;
  /** `/`-separated path relative to the walk's start. */
  rel: string;
}

/** Folder names a walk never enters (version-control internals). */
const ALWAYS_SKIPPED = new Set(['.git', '.hg', '.svn']);

/** Options of a workspace walk. */
export interface WalkOptions {
  /** Skip names starting with a dot (ripgrep's default). */
  skipHidden: boolean;
  /** Also skip `node_modules` folders. */
  skipNodeModules: boolean;
  /** Stop (and report `stopped`) when this time passes (ms since epoch). */
  deadline: number;
  /** Stop after visiting this many entries. */
  maxEntries: number;
  signal: AbortSignal | undefined;
}

/**
 * Walks regular files depth-first in name order, never following a symlink (symlinked files and
 * folders are skipped, so a link can never lead the walk out of the root), never opening FIFOs
 * or devices. `visit` returns false to stop early.
 */
export async function walkFiles(
  start: string,
  options: WalkOptions,
  visit: (entry: WalkEntry) => boolean | Promise<boolean>,
): Promise<{ stopped: boolean }> {
  let visited = 0;
  const stack: { abs: string; rel: string }[] = [{ abs: start, rel: '' }];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    if (options.signal?.aborted) throw new SandboxAbortedError('The search was aborted.', { cause: options.signal.reason });
    if (Date.now() > options.deadline) return { stopped: true };
    let names: { name: string; kind: 'file' | 'dir' }[] = [];
    try {
      const handle = await opendir(dir.abs);
      for await (const d of handle) {
        if (d.isDirectory()) names.push({ name: d.name, kind: 'dir' });
        else if (d.isFile()) names.push({ name: d.name, kind: 'file' });
        // symlinks, FIFOs, sockets and devices are not followed or read
      }
    } catch {
      continue; // unreadable or vanished folder
    }
    names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: { abs: string; rel: string }[] = [];
    for (const entry of names) {
      if (++visited > options.maxEntries) return { stopped: true };
      if (options.skipHidden && entry.name.startsWith('.')) continue;
      const rel = dir.rel === '' ? entry.name : `${dir.rel}/${entry.name}`;
      const abs = join(dir.abs, entry.name);
      if (entry.kind === 'dir') {
        if (ALWAYS_SKIPPED.has(entry.name)) continue;
        if (options.skipNodeModules && entry.name === 'node_modules') continue;
        subdirs.push({ abs, rel });
      } else if (!(await visit({ abs, rel }))) {
        return { stopped: false };
      }
    }
    // Push in reverse so folders are visited in name order.
    for (let k = subdirs.length - 1; k >= 0; k--) stack.push(subdirs[k]!);
  }
  return { stopped: false };
}
