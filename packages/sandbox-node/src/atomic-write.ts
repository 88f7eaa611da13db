import { randomBytes } from 'node:crypto';
import { constants, fsync, type Stats } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { WriteFileResult } from '@aibuddy/sandbox';
import { SandboxAbortedError, SandboxNotAFileError } from '@aibuddy/sandbox';
import { fdPath } from './fd-path.js';
import { kindOf } from './open-regular.js';
import type { Located } from './resolve-at.js';

/** What is at the located target now, refusing anything but "nothing" or a regular file. */
export function existingRegular(target: Located, operation: string): Stats | undefined {
  const stat = target.stat;
  if (stat !== undefined && !stat.isFile()) {
    throw new SandboxNotAFileError(`${operation}: "${target.rel}" is ${kindOf(stat)}, not a regular file.`, {
      path: target.rel,
    });
  }
  return stat;
}

const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const fsyncFd = promisify(fsync);

/** fsyncs a held folder (its entries: the rename). File systems that cannot sync folders are left at that. */
async function syncFolderFd(fd: number): Promise<void> {
  try {
    await fsyncFd(fd);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'EPERM' && code !== 'EISDIR') throw error;
  }
}

/**
 * Writes bytes atomically inside the target's held parent folder: a fresh temp file (O_EXCL, so
 * never through an existing link) created relative to the held folder, then `rename` within that
 * same held folder (both names through `/proc/self/fd/<parent>`). `rename` replaces a directory
 * entry and never follows a symlink or writes through a hard link, and the folder is the one that
 * was checked (a swap of any folder on the way changes nothing), so no byte lands outside the
 * workspace. The old file's mode is kept. Durable: the temp file is synced before the rename and
 * the folder after it.
 */
export async function atomicWrite(
  target: Located,
  data: Buffer,
  previous: Stats | undefined,
  signal: AbortSignal | undefined,
  operation: string,
): Promise<WriteFileResult> {
  const temp = `.${target.name.slice(0, 200)}.${randomBytes(6).toString('hex')}.aibuddy-tmp`;
  const tempPath = fdPath(target.parentFd, temp);
  const handle = await open(tempPath, CREATE_FLAGS, previous ? previous.mode & 0o7777 : 0o666);
  let renamed = false;
  let closed = false;
  try {
    await handle.writeFile(data);
    await handle.sync();
    if (previous) await handle.chmod(previous.mode & 0o7777);
    const written = await handle.stat();
    await handle.close();
    closed = true;
    if (signal?.aborted) {
      throw new SandboxAbortedError(`${operation} was aborted; "${target.rel}" was left unchanged.`, {
        path: target.rel,
        cause: signal.reason,
      });
    }
    await rename(tempPath, fdPath(target.parentFd, target.name));
    renamed = true;
    // The new entry survives a power loss only once the folder holding it is synced too.
    await syncFolderFd(target.parentFd);
    return { path: target.rel, size: data.length, created: previous === undefined, mtimeMs: written.mtimeMs };
  } finally {
    if (!closed) await handle.close().catch(() => undefined);
    if (!renamed) await unlink(tempPath).catch(() => undefined);
  }
}
