import { closeSync, constants, open, openSync } from 'node:fs';
import { promisify } from 'node:util';

/**
 * The path through which the kernel resolves `name` relative to the folder held by descriptor
 * `fd` (the `openat` of Node). `/proc/self/fd/<fd>` is a "magic link": it leads to the open
 * folder itself, not to whatever path that folder had, so a rename or symlink swap of any of its
 * ancestors cannot redirect the lookup. `name` must be one plain component (no `/`, `.` or `..`).
 */
export function fdPath(fd: number, name?: string): string {
  return name === undefined ? `/proc/self/fd/${fd}` : `/proc/self/fd/${fd}/${name}`;
}

/** Open flags of a folder held for handle-relative lookups: never through a symlink. */
export const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** Open flags of a file read through a held folder: no symlink, no blocking on a FIFO, no controlling tty. */
export const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/** `fs.open` returning a plain descriptor (libuv adds O_CLOEXEC, so commands never inherit it). */
export const openFd: (path: string, flags: number) => Promise<number> = promisify(open) as never;

/**
 * Closes a directory descriptor synchronously: closing a folder flushes nothing, so it costs a
 * few microseconds, far less than a round trip through the thread pool (walks close thousands).
 */
export function closeDir(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

/**
 * Opens one folder relative to a held folder, synchronously. Looking up one name in a folder
 * whose entries the kernel has cached takes microseconds, while a thread-pool round trip costs
 * tens of them under load; resolution opens one folder per path component, so this keeps the
 * held-descriptor operations as cheap as the old string-path ones (see bench/sandbox). Throws
 * the usual errno errors (ENOENT, ENOTDIR for a symlink or file, ...).
 */
export function openDirSync(dirFd: number, name: string): number {
  return openSync(fdPath(dirFd, name), DIR_FLAGS);
}

/** `closeDir` for call sites that await a close (a folder's close is synchronous and cheap). */
export function closeFd(fd: number): Promise<void> {
  closeDir(fd);
  return Promise.resolve();
}
