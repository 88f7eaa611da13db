import type { ISandbox, ReadFileResult } from '@aibuddy/sandbox';
import type { FilesystemLimits } from './limits.js';
import type { PathLock } from './path-lock.js';
import type { FileSnapshot, ReadTracker } from './read-tracker.js';
import { fullTextOf, sha256 } from './text.js';

/** What every filesystem tool of one run shares. */
export interface FsRunContext {
  /** The run's sandbox. */
  sandbox: ISandbox;
  /** What the agent has read in this run (stale-read guard). */
  tracker: ReadTracker;
  /** Limits. */
  limits: FilesystemLimits;
  /** Whether `write_file` refuses to overwrite an existing file the agent has not read in this run. */
  overwriteRequiresRead: boolean;
  /** Serialises writes and edits of one file within the run. */
  lock: PathLock;
  /** Workspace-relative paths that writes and edits need a confirmation for, besides every `.git`. */
  protectedPaths?: readonly string[];
}

/** Lines asked for when a tool needs a whole file (the sandbox bounds the size it will read). */
export const WHOLE_FILE_LINES = 1_000_000_000;

/** A snapshot of a file as read: mtime, size, and a content hash when the read covered the whole file exactly. */
export function snapshotOf(read: ReadFileResult): FileSnapshot {
  const whole = read.startLine === 1 ? fullTextOf(read) : undefined;
  return {
    mtimeMs: read.mtimeMs,
    size: read.size,
    ...(whole?.exact ? { sha256: sha256(whole.text) } : {}),
  };
}
