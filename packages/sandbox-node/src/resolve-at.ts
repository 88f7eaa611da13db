import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, readlink } from 'node:fs/promises';
import { SandboxNotAFileError, SandboxNotFoundError } from '@aibuddy/sandbox';
import { closeDir, fdPath, openDirSync, openFd } from './fd-path.js';
import { lexicalParts, linkTarget, MAX_SYMLINK_HOPS, refuse, type Root } from './paths.js';

/**
 * A path located relative to the held root: its parent folder is open, and the final entry was
 * examined with `lstat` inside that open folder (never through a symlink). The caller does its
 * I/O on `parentFd` + `name`, so what was checked is what is used.
 */
export interface Located {
  /** Workspace-relative path as asked for (normalized, `.` for the root), for messages and results. */
  readonly rel: string;
  /** Workspace-relative path after following symlinks that stay inside (the physical location). */
  readonly physical: string;
  /** The open parent folder; close it with `releaseLocated`. */
  readonly parentFd: number;
  /** Whether `parentFd` belongs to this result (false when it is the root's own descriptor). */
  readonly ownsParent: boolean;
  /** The final component inside the parent. */
  readonly name: string;
  /** `lstat` of the final entry (never a symlink), or undefined when it does not exist. */
  readonly stat: Stats | undefined;
}

/** An open folder located relative to the held root. */
export interface LocatedDir {
  /** Workspace-relative path as asked for. */
  readonly rel: string;
  /** Physical workspace-relative path (`.` for the root). */
  readonly physical: string;
  /** Descriptor of the folder, owned by the caller (close it with `closeDir`). */
  readonly fd: number;
}

/** Gives back the parent descriptor of a `Located`. */
export function releaseLocated(located: Located): Promise<void> {
  if (located.ownsParent) closeDir(located.parentFd);
  return Promise.resolve();
}

const code = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;
const joinParts = (parts: readonly string[]) => (parts.length === 0 ? '.' : parts.join('/'));

/** Reads a symlink inside a held folder; undefined when it is no longer a symlink (a racing swap). */
async function readLink(dirFd: number, name: string): Promise<string | undefined> {
  try {
    return await readlink(fdPath(dirFd, name));
  } catch (error) {
    if (code(error) === 'EINVAL' || code(error) === 'ENOENT') return undefined;
    throw error;
  }
}

interface WalkOptions {
  /** Create missing folders on the way (mode 0777 minus umask), as `writeFile` does. */
  create: boolean;
  /** What the final component must be: an entry looked at with `lstat`, or a folder to open. */
  final: 'entry' | 'dir';
  /** The operation, for messages. */
  operation: string;
}

type Outcome =
  | { kind: 'entry'; located: Located }
  | { kind: 'dir'; dir: LocatedDir }
  | { kind: 'missing'; at: string }
  | { kind: 'root' };

/**
 * Walks the components one at a time from the held root: each folder is opened with
 * O_DIRECTORY | O_NOFOLLOW relative to the previous one. A symlink met on the way is read inside
 * its held folder and followed only when its target stays inside the root, by walking again from
 * the root (at most 40 hops, like Linux). Nothing is ever opened by its full path string.
 */
async function walkParts(root: Root, input: string, rel: string, start: string[], options: WalkOptions): Promise<Outcome> {
  let parts = start;
  let hops = 0;
  const hop = (next: string[]) => {
    if (++hops > MAX_SYMLINK_HOPS)
      refuse(input, `more than ${MAX_SYMLINK_HOPS} symlinks or retries on the way (a loop, or a folder changing under us)`);
    parts = next;
  };
  for (;;) {
    if (parts.length === 0) {
      if (options.final === 'entry') return { kind: 'root' };
      // A descriptor of its own for the caller, so the root's stays ours.
      // (No O_NOFOLLOW here: /proc/self/fd/<fd> is itself the magic link that must be followed.)
      return {
        kind: 'dir',
        dir: { rel, physical: '.', fd: await openFd(fdPath(root.fd), constants.O_RDONLY | constants.O_DIRECTORY) },
      };
    }
    let dirFd = root.fd;
    let owned = false;
    const physical: string[] = [];
    let restart = false;
    try {
      for (let i = 0; i < parts.length; i++) {
        const name = parts[i]!;
        const last = i === parts.length - 1;
        if (last && options.final === 'entry') {
          let stat: Stats | undefined;
          try {
            stat = await lstat(fdPath(dirFd, name));
          } catch (error) {
            if (code(error) !== 'ENOENT') throw error;
          }
          if (stat?.isSymbolicLink()) {
            const target = await readLink(dirFd, name);
            // undefined: it stopped being a symlink between lstat and readlink; look again.
            hop(target === undefined ? parts : linkTarget(root, physical, target, input));
            restart = true;
            break;
          }
          const located: Located = {
            rel,
            physical: joinParts([...physical, name]),
            parentFd: dirFd,
            ownsParent: owned,
            name,
            stat,
          };
          owned = false; // handed over to the caller
          return { kind: 'entry', located };
        }
        let fd: number;
        try {
          fd = openDirSync(dirFd, name);
        } catch (error) {
          const c = code(error);
          if (c === 'ENOENT') {
            if (!options.create || last) return { kind: 'missing', at: joinParts([...physical, name]) };
            try {
              await mkdir(fdPath(dirFd, name));
            } catch (mkdirError) {
              if (code(mkdirError) !== 'EEXIST') throw mkdirError;
            }
            hop(parts); // open it again (counted, so a folder deleted in a loop cannot spin us)
            i--;
            continue;
          }
          if (c !== 'ENOTDIR' && c !== 'ELOOP') throw error;
          let stat: Stats;
          try {
            stat = await lstat(fdPath(dirFd, name));
          } catch (lstatError) {
            if (code(lstatError) === 'ENOENT') return { kind: 'missing', at: joinParts([...physical, name]) };
            throw lstatError;
          }
          if (stat.isSymbolicLink()) {
            const target = await readLink(dirFd, name);
            hop(target === undefined ? parts : [...linkTarget(root, physical, target, input), ...parts.slice(i + 1)]);
            restart = true;
            break;
          }
          if (stat.isDirectory()) {
            hop(parts); // it was swapped back to a folder meanwhile: look again
            restart = true;
            break;
          }
          const at = joinParts([...physical, name]);
          if (last) {
            throw new SandboxNotAFileError(`${options.operation}: "${rel}" is not a folder.`, { path: rel });
          }
          throw new SandboxNotFoundError(`${options.operation}: "${at}" (on the way to "${rel}") is not a directory.`, {
            path: rel,
          });
        }
        if (owned) closeDir(dirFd);
        dirFd = fd;
        owned = true;
        physical.push(name);
      }
      if (!restart) {
        owned = false;
        return { kind: 'dir', dir: { rel, physical: joinParts(physical), fd: dirFd } };
      }
    } finally {
      if (owned) closeDir(dirFd);
    }
  }
}

/**
 * Locates a path for a file operation: the parent folder is held open and the final entry
 * examined inside it (a final symlink that stays inside is followed). With `create`, missing
 * folders on the way are made, each relative to its held parent. Returns undefined when a folder
 * on the way does not exist; throws `SandboxPathError` for anything leading out and
 * `SandboxNotAFileError` for the root itself.
 */
export async function locate(
  root: Root,
  input: string,
  options: { create: boolean; operation: string },
): Promise<Located | undefined> {
  const { rel, parts } = lexicalParts(root, input);
  const outcome = await walkParts(root, input, rel, parts, { ...options, final: 'entry' });
  if (outcome.kind === 'root') {
    throw new SandboxNotAFileError(`${options.operation}: "${rel}" is the workspace root folder, not a file.`, { path: rel });
  }
  if (outcome.kind === 'missing') return undefined;
  if (outcome.kind !== 'entry') throw new Error('unreachable');
  return outcome.located;
}

/**
 * Opens a folder of the workspace (the root for `.`), following symlinks that stay inside.
 * Throws `SandboxNotFoundError` when it does not exist and `SandboxNotAFileError` when it is a file.
 */
export async function openDirectory(root: Root, input: string, operation: string): Promise<LocatedDir> {
  const { rel, parts } = lexicalParts(root, input);
  const outcome = await walkParts(root, input, rel, parts, { create: false, final: 'dir', operation });
  if (outcome.kind === 'missing') {
    throw new SandboxNotFoundError(`${operation}: "${rel}" does not exist in the workspace.`, { path: rel });
  }
  if (outcome.kind !== 'dir') throw new Error('unreachable');
  return outcome.dir;
}
