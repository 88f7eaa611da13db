import { readdir } from 'node:fs/promises';
import { SandboxAbortedError } from '@aibuddy/sandbox';
import { abortable } from './abort-race.js';
import { closeDir, fdPath, openDirSync } from './fd-path.js';

/** One regular file met by the walk, named inside its held folder. */
export interface WalkEntry {
  /** Descriptor of the folder holding the file; valid only during `visit`. */
  dirFd: number;
  /** The file's name in that folder. */
  name: string;
  /** `/`-separated path relative to the walk's start. */
  rel: string;
}

/** Folder names a walk never enters (version-control internals). */
const ALWAYS_SKIPPED = new Set(['.git', '.hg', '.svn']);

/** Options of a workspace walk. */
export interface WalkOptions {
  /** Skip names starting with a dot (ripgrep's default). */
  skipHidden: boolean;
  /** Also skip `node_modules` folders. */
  skipNodeModules: boolean;
  /** Stop (and report `stopped`) when this time passes (ms since epoch). */
  deadline: number;
  /** Stop after visiting this many entries. */
  maxEntries: number;
  signal: AbortSignal | undefined;
  /** The operation, for the abort message. */
  operation?: string;
  /** Called once per folder (`rel` is `''` for the start) after it is listed, before its entries are filtered. */
  onFolder?: (fd: number, rel: string) => Promise<void>;
  /** Skips a file or folder (`rel` relative to the start): ignore rules. A skipped folder is not entered. */
  skip?: (rel: string, isDir: boolean) => boolean;
}

interface Frame {
  fd: number;
  owned: boolean;
  rel: string;
  subdirs: string[];
  next: number;
}

class Stop {
  constructor(readonly stopped: boolean) {}
}

/**
 * Walks regular files depth-first in name order with held descriptors: each folder is opened
 * with O_DIRECTORY | O_NOFOLLOW relative to its held parent and listed through its own
 * descriptor, so a folder swapped for a symlink is never entered and a rename above cannot
 * redirect the walk. Symlinks, FIFOs and devices are not visited. At most one descriptor per
 * level is open. The signal and the deadline are checked per entry. `visit` returns false to
 * stop early. The start descriptor stays the caller's.
 */
export async function walkFiles(
  startFd: number,
  options: WalkOptions,
  visitFile: (entry: WalkEntry) => boolean | Promise<boolean>,
): Promise<{ stopped: boolean }> {
  // A visit that reads a file is dropped (it only reads) the moment the signal fires.
  const visit = (entry: WalkEntry): boolean | Promise<boolean> => {
    const going = visitFile(entry);
    return typeof going === 'boolean' ? going : abortable(going, options.signal, options.operation ?? 'The search');
  };
  let visited = 0;
  const frames: Frame[] = [];
  const check = () => {
    if (options.signal?.aborted) {
      throw new SandboxAbortedError(`${options.operation ?? 'The search'} was aborted.`, { cause: options.signal.reason });
    }
    if (Date.now() > options.deadline) throw new Stop(true);
  };
  const enter = async (frame: Frame) => {
    const files: string[] = [];
    try {
      // One readdir per folder (a single round trip), dropped the moment the signal fires.
      const dirents = await abortable(
        readdir(fdPath(frame.fd), { withFileTypes: true }),
        options.signal,
        options.operation ?? 'The search',
      );
      for (const d of dirents) {
        check();
        if (d.isDirectory()) frame.subdirs.push(d.name);
        else if (d.isFile()) files.push(d.name);
        // symlinks, FIFOs, sockets and devices are not followed or read
      }
    } catch (error) {
      if (SandboxAbortedError.isInstance(error) || error instanceof Stop) throw error;
      return; // unreadable or vanished folder
    }
    if (options.onFolder) await options.onFolder(frame.fd, frame.rel);
    const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    files.sort(byName);
    frame.subdirs.sort(byName);
    for (const name of files) {
      check();
      if (++visited > options.maxEntries) throw new Stop(true);
      if (options.skipHidden && name.startsWith('.')) continue;
      const rel = frame.rel === '' ? name : `${frame.rel}/${name}`;
      if (options.skip?.(rel, false)) continue;
      if (!(await visit({ dirFd: frame.fd, name, rel }))) throw new Stop(false);
    }
    frame.subdirs = frame.subdirs.filter((name) => {
      if (options.skipHidden && name.startsWith('.')) return false;
      if (ALWAYS_SKIPPED.has(name)) return false;
      if (options.skipNodeModules && name === 'node_modules') return false;
      return !options.skip?.(frame.rel === '' ? name : `${frame.rel}/${name}`, true);
    });
    visited += frame.subdirs.length;
  };
  try {
    const top: Frame = { fd: startFd, owned: false, rel: '', subdirs: [], next: 0 };
    frames.push(top);
    await enter(top);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      if (frame.next >= frame.subdirs.length) {
        frames.pop();
        if (frame.owned) closeDir(frame.fd);
        continue;
      }
      const name = frame.subdirs[frame.next++]!;
      check();
      if (visited > options.maxEntries) throw new Stop(true);
      let fd: number;
      try {
        fd = openDirSync(frame.fd, name);
      } catch {
        continue; // vanished, or swapped for a symlink (ENOTDIR/ELOOP): never entered
      }
      const child: Frame = { fd, owned: true, rel: frame.rel === '' ? name : `${frame.rel}/${name}`, subdirs: [], next: 0 };
      frames.push(child);
      await enter(child);
    }
    return { stopped: false };
  } catch (error) {
    if (error instanceof Stop) return { stopped: error.stopped };
    throw error;
  } finally {
    for (const frame of frames) if (frame.owned) closeDir(frame.fd);
  }
}
