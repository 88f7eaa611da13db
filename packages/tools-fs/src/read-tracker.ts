/** What the agent last saw of a file in this run. */
export interface FileSnapshot {
  /** Modification time when last read or written by this run. */
  mtimeMs: number;
  /** Size in bytes then. */
  size: number;
  /** SHA-256 of the whole text, when the whole file was seen (catches changes within one mtime tick). */
  sha256?: string;
}

/**
 * Per-run memory of which files the agent has read (or written) and in which state, for the
 * stale-read guard. One tracker lives in the closure of one `create(ctx)` call, i.e. one run.
 */
export interface ReadTracker {
  /** The snapshot of a path, if the agent read or wrote it in this run. */
  get(path: string): FileSnapshot | undefined;
  /** Records what the agent has just seen or written. */
  record(path: string, snapshot: FileSnapshot): void;
}

/** Creates an empty tracker. */
export function createReadTracker(): ReadTracker {
  const seen = new Map<string, FileSnapshot>();
  return {
    get: (path) => seen.get(path),
    record: (path, snapshot) => {
      seen.set(path, snapshot);
    },
  };
}

/** Why a file counts as changed since the snapshot, or `undefined` when it does not. */
export function staleReason(before: FileSnapshot, now: FileSnapshot): string | undefined {
  if (before.mtimeMs !== now.mtimeMs)
    return `its modification time changed (${new Date(before.mtimeMs).toISOString()} → ${new Date(now.mtimeMs).toISOString()})`;
  if (before.size !== now.size) return `its size changed (${before.size} → ${now.size} bytes)`;
  if (before.sha256 !== undefined && now.sha256 !== undefined && before.sha256 !== now.sha256) return 'its content changed';
  return undefined;
}
