import { lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DirEntry, EntryType, LsOptions, LsResult } from '@aibuddy/sandbox';
import { SandboxAbortedError, SandboxArgumentError, SandboxNotAFileError, SandboxNotFoundError } from '@aibuddy/sandbox';
import type { ResolvedPath } from './paths.js';

/** Default cap on `ls` entries. */
export const DEFAULT_LS_LIMIT = 1000;

/** Lists a folder: entries sorted by name, symlinks reported as symlinks and never followed. */
export async function listDir(target: ResolvedPath, options: LsOptions | undefined): Promise<LsResult> {
  const limit = options?.limit ?? DEFAULT_LS_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new SandboxArgumentError('ls: limit must be a whole number of at least 1.');
  if (!target.exists) throw new SandboxNotFoundError(`ls: "${target.rel}" does not exist in the workspace.`, { path: target.rel });
  const info = await stat(target.real);
  if (!info.isDirectory()) {
    throw new SandboxNotAFileError(`ls: "${target.rel}" is not a folder; use readFile to read a file.`, { path: target.rel });
  }
  const dirents = await readdir(target.real, { withFileTypes: true });
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries: DirEntry[] = [];
  for (const d of dirents.slice(0, limit)) {
    if (options?.signal?.aborted) throw new SandboxAbortedError('ls was aborted.', { path: target.rel });
    const type: EntryType = d.isSymbolicLink() ? 'symlink' : d.isDirectory() ? 'dir' : d.isFile() ? 'file' : 'other';
    let size = 0;
    if (type === 'file' || type === 'symlink') {
      try {
        size = (await lstat(join(target.real, d.name))).size;
      } catch {
        size = 0;
      }
    }
    entries.push({ name: d.name, type, size });
  }
  return { path: target.rel, entries, truncated: dirents.length > limit };
}
