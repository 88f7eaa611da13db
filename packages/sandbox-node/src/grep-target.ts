/**
 * Where a grep searches: the folder opened (or the single file located) relative to the held
 * root, so that neither engine follows a path string that could be swapped under it.
 */
import { SandboxNotAFileError, SandboxNotFoundError } from '@aibuddy/sandbox';
import { DIR_FLAGS, fdPath, openFd } from './fd-path.js';
import { lexicalParts, type Root } from './paths.js';
import { kindOf } from './open-regular.js';
import { locate, openDirectory, releaseLocated, type Located, type LocatedDir } from './resolve-at.js';

/** The search folder (held open) or the single file (located), with its workspace-relative path. */
export type GrepTarget = { kind: 'dir'; dir: LocatedDir; physical: string } | { kind: 'file'; file: Located; physical: string };

/** Opens the search folder (or locates the single file) relative to the held root. */
export async function locateTarget(root: Root, path: string): Promise<GrepTarget> {
  if (lexicalParts(root, path).parts.length === 0) {
    const dir = await openDirectory(root, path, 'grep');
    return { kind: 'dir', dir, physical: dir.physical };
  }
  const located = await locate(root, path, { create: false, operation: 'grep' });
  if (located?.stat === undefined) {
    if (located) await releaseLocated(located);
    throw new SandboxNotFoundError(`grep: "${located?.rel ?? path}" does not exist in the workspace.`, {
      path: located?.rel ?? path,
    });
  }
  if (located.stat.isFile()) return { kind: 'file', file: located, physical: located.physical };
  if (!located.stat.isDirectory()) {
    // A FIFO would block ripgrep until the time bound (and the JavaScript engine skips it
    // silently); a device or socket is no text to search either. Said as readFile says it.
    await releaseLocated(located);
    throw new SandboxNotAFileError(`grep: "${located.rel}" is ${kindOf(located.stat)}, not a regular file or a folder.`, {
      path: located.rel,
    });
  }
  try {
    const fd = await openFd(fdPath(located.parentFd, located.name), DIR_FLAGS);
    return { kind: 'dir', dir: { rel: located.rel, physical: located.physical, fd }, physical: located.physical };
  } catch (error) {
    // Swapped for a symlink or a file since the lstat: treat like a path that changed under us.
    throw new SandboxNotFoundError(`grep: "${located.rel}" changed while it was being opened; try again.`, {
      path: located.rel,
      cause: error,
    });
  } finally {
    await releaseLocated(located);
  }
}
