import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelOutput } from '@aibuddy/registry';
import { CompactorError } from './errors.js';
import { safeName } from './safe-name.js';

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
  /** How the result was compacted. */
  strategy: 'trim' | 'summary';
  /** Tokens of the model view before compaction. */
  originalTokens: number;
  /** Tokens of the compacted view. */
  compactedTokens: number;
  /** The compacted model view (used to rebuild the context of a resumed run). */
  compacted: ModelOutput;
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
  await mkdir(dir, { recursive: true });
  const name = `.Case-Probe-${process.pid}-${randomBytes(4).toString('hex')}`;
  const path = join(dir, name);
  await writeFile(path, '');
  try {
    return await stat(join(dir, name.toLowerCase())).then(
      () => true,
      () => false,
    );
  } finally {
    await rm(path, { force: true });
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/** Creates a {@link ResultStore} over a data dir. */
export function createResultStore(options: ResultStoreOptions): ResultStore {
  if (typeof options.dataDir !== 'string' || options.dataDir === '') {
    throw new CompactorError('the result store needs a data dir (dataDir); pass the host\'s data dir.');
  }
  const root = join(options.dataDir, COMPACTED_OUTPUTS_DIR);
  const now = options.now ?? Date.now;
  const pruneIntervalMs = options.pruneIntervalMs ?? 60_000;
  const staleTempMs = options.staleTempMs ?? 10 * 60_000;
  let lastPrune = -Infinity;
  let caseInsensitive = false;
  let probed: Promise<void> | undefined;
  const ready = () =>
    (probed ??= probeCaseInsensitive(root).then(
      (folds) => {
        caseInsensitive = folds;
      },
      () => {
        // Cannot probe (read-only data dir): assume the cautious, case-folding rule.
        caseInsensitive = true;
      },
    ));

  const taskFolder = (taskId: string | undefined | null) =>
    taskId === undefined || taskId === null ? NO_TASK_FOLDER : safeName(taskId, { caseInsensitive });
  const pathFor = (taskId: string | undefined | null, toolCallId: string) =>
    join(root, taskFolder(taskId), `${safeName(toolCallId, { caseInsensitive })}.json`);

  const prune = async (policy: RetentionPolicy | undefined = options.retention): Promise<PruneReport> => {
    lastPrune = now();
    const report: PruneReport = { removed: 0, freedBytes: 0 };
    let folders: string[];
    try {
      folders = await readdir(root);
    } catch (error) {
      if (isMissing(error)) return report;
      throw error;
    }
    const files: { path: string; size: number; mtime: number }[] = [];
    for (const folder of folders) {
      const dir = join(root, folder);
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        continue;
      }
      for (const name of names) {
        const path = join(dir, name);
        const info = await stat(path).catch(() => undefined);
        if (!info?.isFile()) continue;
        if (name.endsWith('.tmp')) {
          if (now() - info.mtimeMs > staleTempMs) await unlink(path).catch(() => undefined);
          continue;
        }
        if (name.endsWith('.json')) files.push({ path, size: info.size, mtime: info.mtimeMs });
      }
    }
    const remove = async (file: { path: string; size: number }) => {
      await unlink(file.path).catch(() => undefined);
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
    for (const folder of folders) await rmdir(join(root, folder)).catch(() => undefined);
    return report;
  };

  return {
    root,
    pathFor: (taskId, toolCallId) => pathFor(taskId, toolCallId),
    async write(record, signal) {
      await ready();
      const finalPath = pathFor(record.taskId, record.toolCallId);
      const dir = join(root, taskFolder(record.taskId));
      const tempPath = join(dir, `.${safeName(record.toolCallId, { caseInsensitive }).slice(0, 80)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
      const data = JSON.stringify(record);
      try {
        if (signal?.aborted) throw signal.reason;
        await mkdir(dir, { recursive: true });
        const handle = await open(tempPath, 'wx', 0o600);
        try {
          await handle.writeFile(data, 'utf8');
          await handle.sync();
        } finally {
          await handle.close();
        }
        if (signal?.aborted) throw signal.reason;
        await options.beforeRename?.(tempPath);
        if (signal?.aborted) throw signal.reason;
        await rename(tempPath, finalPath);
      } catch (error) {
        await rm(tempPath, { force: true }).catch(() => undefined);
        throw error;
      }
      if (options.retention && now() - lastPrune >= pruneIntervalMs) void prune().catch(() => undefined);
      return finalPath;
    },
    async read(taskId, toolCallId) {
      await ready();
      let text: string;
      try {
        text = await readFile(pathFor(taskId, toolCallId), 'utf8');
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw new CompactorError(`could not read the stored result of call "${toolCallId}": ${(error as Error).message}`, {
          toolCallId,
          cause: error,
        });
      }
      let record: StoredResult;
      try {
        record = JSON.parse(text) as StoredResult;
      } catch (error) {
        throw new CompactorError(`the stored result of call "${toolCallId}" is not valid JSON; remove ${pathFor(taskId, toolCallId)}.`, {
          toolCallId,
          cause: error,
        });
      }
      // Hashed names cannot be reversed: the record itself says whose it is.
      if (record.toolCallId !== toolCallId || record.taskId !== (taskId ?? null)) return undefined;
      return record;
    },
    prune,
  };
}
