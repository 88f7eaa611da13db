import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readdir, rm, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelOutput } from '@aibuddy/registry';
import { CompactorError } from './errors.js';
import { atomicWriteFile, readFileNoFollow, realFolder } from './safe-fs.js';
import { safeName } from './safe-name.js';
import { parseStoredResult } from './stored-records.js';

/** The folder under the data dir that holds persisted raw results. */
export const COMPACTED_OUTPUTS_DIR = 'compacted_outputs';
/** The folder name used for calls that belong to no task. `~` + non-hex: no real id maps to it. */
export const NO_TASK_FOLDER = '~no-task';

/** A persisted raw result: what `view_tool_call` recovers. */
export interface StoredResult {
  /** Format version. */
  version: 1;
  /** The task the call belongs to (`null` when none). */
  taskId: string | null;
  /** The call id, exactly as the model and client know it. */
  toolCallId: string;
  /** The tool that produced the result. */
  toolName: string;
  /** The raw input of the call. */
  input: unknown;
  /** The raw output of the call. */
  output: unknown;
  /** The model view before compaction, as text; `null` when it is the output string itself (stored once). */
  modelText: string | null;
  /** How the result was compacted (`keep`: only the input was). */
  strategy: 'trim' | 'summary' | 'keep';
  /** Tokens of the model view before compaction. */
  originalTokens: number;
  /** Tokens of the compacted view. */
  compactedTokens: number;
  /** The compacted model view (used to rebuild the context of a resumed run). */
  compacted: ModelOutput;
  /**
   * The compact form of the input the model is sent in later steps instead of `input` (from the
   * tool's `compact` hook, for large inputs such as a whole file to write); absent when the input
   * is sent as it is.
   */
  compactedInput?: unknown;
  /** When it was written (ISO 8601). */
  createdAt: string;
}

/** How long and how much the store keeps (both optional; nothing is removed without them). */
export interface RetentionPolicy {
  /** Records older than this are removed by `prune`. */
  maxAgeMs?: number;
  /** Oldest records are removed until the folder holds at most this many bytes. */
  maxBytes?: number;
}

/** Options of {@link createResultStore}. */
export interface ResultStoreOptions {
  /** The data dir; records live under `<dataDir>/compacted_outputs/`. */
  dataDir: string;
  /** Retention by age and size, applied by `prune` (and after writes, at most once per `pruneIntervalMs`). */
  retention?: RetentionPolicy;
  /** Minimum time between automatic prunes after writes (default 60 s). */
  pruneIntervalMs?: number;
  /** Temp files left by a crash are removed by `prune` once older than this (default 10 min). */
  staleTempMs?: number;
  /** Clock, injectable for tests. */
  now?: () => number;
  /**
   * Runs after the temp file is written and synced and before it is renamed into place.
   * For fault-injection tests: a throw here must leave no final file and no temp file.
   */
  beforeRename?: (tempPath: string) => void | Promise<void>;
}

/** What `prune` removed. */
export interface PruneReport {
  /** Records removed. */
  removed: number;
  /** Bytes freed. */
  freedBytes: number;
}

/** Persists and reads raw results at `<dataDir>/compacted_outputs/<taskId>/<toolCallId>.json`. */
export interface ResultStore {
  /** The `compacted_outputs` folder. */
  readonly root: string;
  /**
   * Where the record of one call lives (ids encoded by {@link safeName}; exact once the store has
   * written or read once, which probes whether the file system folds case).
   */
  pathFor(taskId: string | undefined, toolCallId: string): string;
  /**
   * Writes a record atomically (temp file, fsync, rename). When `signal` aborts before the
   * rename, the temp file is removed and the call rejects: no half-written file remains.
   */
  write(record: StoredResult, signal?: AbortSignal): Promise<string>;
  /** Reads a record, or `undefined` when there is none for this task and call. */
  read(taskId: string | undefined, toolCallId: string): Promise<StoredResult | undefined>;
  /** Applies the retention policy (or the one given) and removes stale temp files. */
  prune(policy?: RetentionPolicy): Promise<PruneReport>;
}

/**
 * Whether the file system under `dir` folds case, probed once with a real file: ids that differ
 * only in case must not share a file there.
 */
async function probeCaseInsensitive(dir: string): Promise<boolean> {
  const name = `.Case-Probe-${process.pid}-${randomBytes(4).toString('hex')}`;
  const path = join(dir, name);
  const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  await handle.close();
  try {
    return await lstat(join(dir, name.toLowerCase())).then(
      () => true,
      () => false,
    );
  } finally {
    await rm(path, { force: true });
  }
}

/** Creates a {@link ResultStore} over a data dir. */
export function createResultStore(options: ResultStoreOptions): ResultStore {
  if (typeof options.dataDir !== 'string' || options.dataDir === '') {
    throw new CompactorError("the result store needs a data dir (dataDir); pass the host's data dir.");
  }
  const dataDir = options.dataDir;
  const root = join(dataDir, COMPACTED_OUTPUTS_DIR);
  const now = options.now ?? Date.now;
  const pruneIntervalMs = options.pruneIntervalMs ?? 60_000;
  const staleTempMs = options.staleTempMs ?? 10 * 60_000;
  let lastPrune = -Infinity;
  let caseInsensitive = false;
  let probed: Promise<void> | undefined;
  const ready = () =>
    (probed ??= realFolder(dataDir, [COMPACTED_OUTPUTS_DIR], true)
      .then((dir) => probeCaseInsensitive(dir!))
      .then(
        (folds) => {
          caseInsensitive = folds;
        },
        (error: unknown) => {
          // A refused symlink must refuse every later operation too, not only the probe.
          if (CompactorError.isInstance(error)) {
            probed = undefined;
            throw error;
          }
          // Cannot probe (read-only data dir): assume the cautious, case-folding rule.
          caseInsensitive = true;
        },
      ));

  const taskFolder = (taskId: string | undefined | null) =>
    taskId === undefined || taskId === null ? NO_TASK_FOLDER : safeName(taskId, { caseInsensitive });
  const fileName = (toolCallId: string) => `${safeName(toolCallId, { caseInsensitive })}.json`;
  const pathFor = (taskId: string | undefined | null, toolCallId: string) => join(root, taskFolder(taskId), fileName(toolCallId));

  const prune = async (policy: RetentionPolicy | undefined = options.retention): Promise<PruneReport> => {
    lastPrune = now();
    const report: PruneReport = { removed: 0, freedBytes: 0 };
    // The store's own tree only: a symlinked data dir or `compacted_outputs` is refused, a
    // symlinked task folder or file is skipped (never followed, never deleted through).
    const base = await realFolder(dataDir, [COMPACTED_OUTPUTS_DIR], false);
    if (base === undefined) return report;
    const folders = (await readdir(base, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    const files: { path: string; size: number; mtime: number }[] = [];
    for (const folder of folders) {
      const dir = join(base, folder);
      const info = await lstat(dir).catch(() => undefined);
      if (!info?.isDirectory()) continue;
      let entries;
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (!entry.isFile()) continue;
        const path = join(dir, entry.name);
        const stats = await lstat(path).catch(() => undefined);
        if (!stats?.isFile()) continue;
        if (entry.name.endsWith('.tmp')) {
          if (now() - stats.mtimeMs > staleTempMs) await unlinkInside(dir, path);
          continue;
        }
        if (entry.name.endsWith('.json')) files.push({ path, size: stats.size, mtime: stats.mtimeMs });
      }
    }
    const remove = async (file: { path: string; size: number }) => {
      await unlinkInside(join(file.path, '..'), file.path);
      report.removed++;
      report.freedBytes += file.size;
    };
    let kept = files;
    if (policy?.maxAgeMs !== undefined) {
      const cutoff = now() - policy.maxAgeMs;
      const old = kept.filter((f) => f.mtime < cutoff);
      for (const file of old) await remove(file);
      kept = kept.filter((f) => f.mtime >= cutoff);
    }
    if (policy?.maxBytes !== undefined) {
      kept.sort((a, b) => a.mtime - b.mtime);
      let total = kept.reduce((sum, f) => sum + f.size, 0);
      while (total > policy.maxBytes && kept.length > 0) {
        const oldest = kept.shift()!;
        total -= oldest.size;
        await remove(oldest);
      }
    }
    for (const folder of folders) await rmdir(join(base, folder)).catch(() => undefined);
    return report;
  };

  return {
    root,
    pathFor: (taskId, toolCallId) => pathFor(taskId, toolCallId),
    async write(record, signal) {
      if (signal?.aborted) throw signal.reason;
      await ready();
      const dir = await realFolder(dataDir, [COMPACTED_OUTPUTS_DIR, taskFolder(record.taskId)], true);
      const finalPath = await atomicWriteFile(dir!, fileName(record.toolCallId), JSON.stringify(record), {
        signal,
        beforeRename: options.beforeRename,
      });
      if (options.retention && now() - lastPrune >= pruneIntervalMs) void prune().catch(() => undefined);
      return finalPath;
    },
    async read(taskId, toolCallId) {
      await ready();
      const path = pathFor(taskId, toolCallId);
      let text: string | undefined;
      try {
        const dir = await realFolder(dataDir, [COMPACTED_OUTPUTS_DIR, taskFolder(taskId)], false);
        text = dir === undefined ? undefined : await readFileNoFollow(path);
      } catch (error) {
        if (CompactorError.isInstance(error)) throw error;
        throw new CompactorError(`could not read the stored result of call "${toolCallId}": ${(error as Error).message}`, {
          toolCallId,
          cause: error,
        });
      }
      if (text === undefined) return undefined;
      const record = parseStoredResult(text, path, toolCallId);
      // Hashed names cannot be reversed: the record itself says whose it is.
      if (record.toolCallId !== toolCallId || record.taskId !== (taskId ?? null)) return undefined;
      return record;
    },
    prune,
  };
}

/** Unlinks `path` only when its folder is still a real folder (not swapped for a link meanwhile). */
async function unlinkInside(dir: string, path: string): Promise<void> {
  const info = await lstat(dir).catch(() => undefined);
  if (!info?.isDirectory()) return;
  await unlink(path).catch(() => undefined);
}
