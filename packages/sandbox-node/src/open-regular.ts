import { constants } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { SandboxNotAFileError, SandboxNotFoundError, SandboxPathError } from '@aibuddy/sandbox';

/** Names the kind of a non-regular file for error messages. */
export function kindOf(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isSymbolicLink()) return 'a symlink';
  return 'not a regular file';
}

/**
 * Opens an already resolved real path for reading, refusing anything but a regular file. The
 * type is checked with `lstat` before opening (opening a FIFO or a device can block or have side
 * effects), and the open uses O_NOFOLLOW | O_NONBLOCK so a symlink or FIFO swapped in after the
 * check fails instead of being followed or blocking; `fstat` then confirms the same inode.
 */
export async function openRegularFile(real: string, rel: string, operation: string): Promise<{ handle: FileHandle; stat: Stats }> {
  let before: Stats;
  try {
    before = await lstat(real);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new SandboxNotFoundError(`${operation}: "${rel}" does not exist in the workspace.`, { path: rel, cause: error });
    }
    throw error;
  }
  if (!before.isFile()) {
    throw new SandboxNotAFileError(`${operation}: "${rel}" is ${kindOf(before)}, not a regular file.`, { path: rel });
  }
  let handle: FileHandle;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new SandboxPathError(`${operation}: "${rel}" became a symlink after it was checked; refused.`, { path: rel });
    }
    throw error;
  }
  const stat = await handle.stat();
  if (!stat.isFile() || stat.ino !== before.ino || stat.dev !== before.dev) {
    await handle.close();
    throw new SandboxNotAFileError(`${operation}: "${rel}" changed while it was being opened; refused.`, { path: rel });
  }
  return { handle, stat };
}
