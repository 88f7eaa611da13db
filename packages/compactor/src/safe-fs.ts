import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { CompactorError } from './errors.js';

/**
 * File access for the host's own state (the data dir) that never follows a symlink from the data
 * dir down. A command of the model may replace any folder it can reach by a link to an outside
 * folder; the host must then refuse, not write, read or delete through it.
 */

const { O_CREAT, O_EXCL, O_NOFOLLOW, O_RDONLY, O_WRONLY } = constants;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;

/** The error of a refused symlink: names the path and the fix. */
function symlinkRefused(path: string, cause?: unknown): CompactorError {
  return new CompactorError(
    `refusing to follow the symlink at ${path}: the data dir and everything under it must be real folders and files ` +
      '(something replaced it by a link). Remove the link, or pass a --data-dir outside the workspace.',
    { stage: 'execution', cause },
  );
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException)?.code;
}

/**
 * `mkdir -p`, one folder at a time from the deepest existing ancestor down. Node's own
 * `mkdir(path, { recursive: true })` never settles where mkdir answers ENOENT under an existing
 * parent (/proc, some FUSE mounts): it keeps re-creating the parent and retrying. Here that ENOENT
 * is an error like any other.
 */
export async function makeFolders(path: string, mode = 0o700): Promise<void> {
  const missing: string[] = [];
  for (let at = resolve(path); ; at = dirname(at)) {
    try {
      await lstat(at);
      break;
    } catch (error) {
      if (code(error) !== 'ENOENT') throw error;
    }
    if (dirname(at) === at) break;
    missing.push(at);
  }
  for (const folder of missing.reverse()) {
    try {
      await mkdir(folder, { mode });
    } catch (error) {
      if (code(error) !== 'EEXIST') throw error;
    }
  }
}

/**
 * Makes sure `base/…/components` are real folders, creating missing ones when `create` is set:
 * every component (and `base` itself) is checked with `lstat`, and a symlink anywhere is refused.
 * Resolves with the full path, or `undefined` when a component is missing and `create` is off.
 */
export async function realFolder(base: string, components: readonly string[], create: boolean): Promise<string | undefined> {
  let path = base;
  for (let i = -1; i < components.length; i++) {
    if (i >= 0) path = join(path, components[i]!);
    let info;
    try {
      info = await lstat(path);
    } catch (error) {
      if (code(error) !== 'ENOENT') throw error;
      if (!create) return undefined;
      try {
        // Folders above the data dir are the user's (trusted); from the data dir down, one at a time.
        await (i < 0 ? makeFolders(path) : mkdir(path, { mode: 0o700 }));
      } catch (mkdirError) {
        if (code(mkdirError) !== 'EEXIST') throw mkdirError;
      }
      info = await lstat(path);
    }
    if (info.isSymbolicLink()) throw symlinkRefused(path);
    if (!info.isDirectory()) {
      throw new CompactorError(`${path} is not a folder; the data dir layout is broken. Remove it or pass another --data-dir.`, {
        stage: 'execution',
      });
    }
  }
  return path;
}

/** Options of {@link atomicWriteFile}. */
export interface AtomicWriteOptions {
  /** Aborts before the rename: the temp file is removed and nothing is left. */
  signal?: AbortSignal | undefined;
  /** Fault injection for tests: runs after the temp file is synced, before the rename. */
  beforeRename?: ((tempPath: string) => void | Promise<void>) | undefined;
}

/**
 * Writes `data` to `folder/name` atomically and durably: a fresh temp file in the same folder
 * (`O_EXCL | O_NOFOLLOW`, mode 0600), fsync, rename over the final name, then fsync of the folder
 * so that the rename itself survives a power loss. The caller checks `folder` with
 * {@link realFolder} first. On any failure (or abort) the temp file is removed.
 */
export async function atomicWriteFile(
  folder: string,
  name: string,
  data: string,
  options: AtomicWriteOptions = {},
): Promise<string> {
  const finalPath = join(folder, name);
  const tempPath = join(folder, `.${name.slice(0, 80)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const { signal } = options;
  try {
    if (signal?.aborted) throw signal.reason;
    const handle = await open(tempPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
    try {
      await handle.writeFile(data, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (signal?.aborted) throw signal.reason;
    await options.beforeRename?.(tempPath);
    if (signal?.aborted) throw signal.reason;
    // rename() replaces a symlink at the final name instead of following it.
    await rename(tempPath, finalPath);
  } catch (error) {
    await rm(tempPath, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncFolder(folder);
  return finalPath;
}

/** fsyncs a folder (its entries: a rename, a new file). Best effort where the OS refuses it. */
export async function syncFolder(folder: string): Promise<void> {
  let handle;
  try {
    handle = await open(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    if (code(error) === 'ELOOP' || code(error) === 'ENOTDIR') throw symlinkRefused(folder, error);
    throw error;
  }
  try {
    await handle.sync();
  } catch (error) {
    // Some file systems (and Windows) do not sync folders; the data is synced already.
    if (code(error) !== 'EINVAL' && code(error) !== 'EPERM' && code(error) !== 'EISDIR') throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Reads a regular file without following a symlink at its name (`O_NOFOLLOW`). Resolves with
 * `undefined` when it does not exist; a link or a non-file is refused.
 */
export async function readFileNoFollow(path: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(path, O_RDONLY | O_NOFOLLOW);
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    if (code(error) === 'ELOOP') throw symlinkRefused(path, error);
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile())
      throw new CompactorError(`${basename(path)} is not a regular file; refusing to read it.`, { stage: 'execution' });
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
