import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { chmod, lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { WriteFileResult } from '@aibuddy/sandbox';
import { SandboxAbortedError, SandboxNotAFileError, SandboxPathError } from '@aibuddy/sandbox';
import { kindOf } from './open-regular.js';
import { isInside, type ResolvedPath, type Root } from './paths.js';

/** What is at the target now, refusing anything but "nothing" or a regular file. */
export async function existingRegular(target: ResolvedPath, operation: string): Promise<Stats | undefined> {
  let stat: Stats;
  try {
    stat = await lstat(target.real);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!stat.isFile()) {
    throw new SandboxNotAFileError(`${operation}: "${target.rel}" is ${kindOf(stat)}, not a regular file.`, {
      path: target.rel,
    });
  }
  return stat;
}

/**
 * Writes bytes atomically: a fresh temp file (O_EXCL, so never through an existing link) in the
 * target's own real folder, then `rename` over the target. `rename` replaces a directory entry and
 * never follows a symlink or writes through a hard link, so whatever was swapped in at the target
 * meanwhile, no byte lands outside the workspace. The old file's mode is kept.
 */
export async function atomicWrite(
  root: Root,
  target: ResolvedPath,
  data: Buffer,
  previous: Stats | undefined,
  signal: AbortSignal | undefined,
  operation: string,
): Promise<WriteFileResult> {
  const folder = dirname(target.real);
  if (!isInside(root.real, folder) || folder === target.real) {
    throw new SandboxPathError(`${operation}: "${target.rel}" cannot be written (it is the workspace root).`, {
      path: target.rel,
    });
  }
  await mkdir(folder, { recursive: true });
  // mkdir may have raced with a symlink swap of a parent: check the folder is still the real one.
  const folderStat = await lstat(folder);
  if (!folderStat.isDirectory()) {
    throw new SandboxPathError(`${operation}: the folder of "${target.rel}" changed while writing; refused.`, {
      path: target.rel,
    });
  }
  const temp = join(folder, `.${basename(target.real)}.${randomBytes(6).toString('hex')}.aibuddy-tmp`);
  const handle = await open(temp, 'wx', previous ? previous.mode & 0o7777 : 0o666);
  let renamed = false;
  try {
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    if (previous) await chmod(temp, previous.mode & 0o7777);
    if (signal?.aborted) {
      throw new SandboxAbortedError(`${operation} was aborted; "${target.rel}" was left unchanged.`, {
        path: target.rel,
        cause: signal.reason,
      });
    }
    await rename(temp, target.real);
    renamed = true;
    const after = await lstat(target.real);
    return { path: target.rel, size: data.length, created: previous === undefined, mtimeMs: after.mtimeMs };
  } finally {
    if (!renamed) {
      await handle.close().catch(() => undefined);
      await unlink(temp).catch(() => undefined);
    }
  }
}
