import { close, constants, open } from 'node:fs';
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

const closeFdAsync = promisify(close);

/**
 * Closes a descriptor, ignoring errors (it is ours and only ever closed once). Asynchronous so a
 * slow close (a network filesystem flushing) never blocks the event loop.
 */
export function closeFd(fd: number): Promise<void> {
  return closeFdAsync(fd).catch(() => undefined);
}
