import type { Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { SandboxNotAFileError, SandboxNotFoundError, SandboxPathError } from '@aibuddy/sandbox';
import { fdPath, READ_FLAGS } from './fd-path.js';
import type { Located } from './resolve-at.js';

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
 * Opens a located file for reading, inside its held parent folder, refusing anything but a regular
 * file. The type was checked with `lstat` in the same held folder (opening a FIFO or a device can
 * block or have side effects); the open uses O_NOFOLLOW | O_NONBLOCK so a symlink or FIFO swapped
 * in after the check fails instead of being followed or blocking; `fstat` then confirms the same
 * inode. The caller reads from the returned handle only.
 */
export async function openRegularFile(located: Located, operation: string): Promise<{ handle: FileHandle; stat: Stats }> {
  const { rel, stat: before } = located;
  if (before === undefined) {
    throw new SandboxNotFoundError(`${operation}: "${rel}" does not exist in the workspace.`, { path: rel });
  }
  if (!before.isFile()) {
    throw new SandboxNotAFileError(`${operation}: "${rel}" is ${kindOf(before)}, not a regular file.`, { path: rel });
  }
  let handle: FileHandle;
  try {
    handle = await open(fdPath(located.parentFd, located.name), READ_FLAGS);
  } catch (error) {
    const c = (error as NodeJS.ErrnoException).code;
    if (c === 'ELOOP') {
      throw new SandboxPathError(`${operation}: "${rel}" became a symlink after it was checked; refused.`, { path: rel });
    }
    if (c === 'ENOENT') {
      throw new SandboxNotFoundError(`${operation}: "${rel}" disappeared while it was being opened.`, {
        path: rel,
        cause: error,
      });
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

/**
 * Reads a whole regular file named by a walk (the folder held by `dirFd`), or returns undefined
 * when it is not a regular file, is larger than `maxBytes`, or is gone. Used by the JavaScript grep.
 */
export async function readRegularAt(dirFd: number, name: string, maxBytes: number): Promise<Buffer | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(fdPath(dirFd, name), READ_FLAGS);
  } catch {
    return undefined; // vanished, or swapped for a symlink (ELOOP): never followed
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > maxBytes) return undefined;
    return await handle.readFile();
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
