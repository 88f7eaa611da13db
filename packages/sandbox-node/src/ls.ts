import { lstat, opendir } from 'node:fs/promises';
import type { DirEntry, EntryType, LsOptions, LsResult } from '@aibuddy/sandbox';
import { SandboxAbortedError, SandboxArgumentError } from '@aibuddy/sandbox';
import { fdPath } from './fd-path.js';
import type { LocatedDir } from './resolve-at.js';

/** Default cap on `ls` entries. */
export const DEFAULT_LS_LIMIT = 1000;

/** Validates `ls` options before anything is opened. */
export function lsLimit(options: LsOptions | undefined): number {
  const limit = options?.limit ?? DEFAULT_LS_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new SandboxArgumentError('ls: limit must be a whole number of at least 1.');
  return limit;
}

function aborted(signal: AbortSignal | undefined, rel: string): void {
  if (signal?.aborted) throw new SandboxAbortedError('ls was aborted.', { path: rel, cause: signal.reason });
}

/**
 * Lists an open folder: entries sorted by name, symlinks reported as symlinks and never followed.
 * Entries are read from the held descriptor and sizes taken with `lstat` inside it, so the
 * listing is of the folder that was checked. The signal is checked per entry.
 */
export async function listDir(dir: LocatedDir, options: LsOptions | undefined): Promise<LsResult> {
  const limit = lsLimit(options);
  const signal = options?.signal;
  const dirents: { name: string; type: EntryType }[] = [];
  const handle = await opendir(fdPath(dir.fd), { bufferSize: 256 });
  try {
    for (let d = await handle.read(); d !== null; d = await handle.read()) {
      aborted(signal, dir.rel);
      const type: EntryType = d.isSymbolicLink() ? 'symlink' : d.isDirectory() ? 'dir' : d.isFile() ? 'file' : 'other';
      dirents.push({ name: d.name, type });
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries: DirEntry[] = [];
  for (const d of dirents.slice(0, limit)) {
    aborted(signal, dir.rel);
    let size = 0;
    if (d.type === 'file' || d.type === 'symlink') {
      try {
        size = (await lstat(fdPath(dir.fd, d.name))).size;
      } catch {
        size = 0;
      }
    }
    entries.push({ name: d.name, type: d.type, size });
  }
  return { path: dir.rel, entries, truncated: dirents.length > limit };
}
