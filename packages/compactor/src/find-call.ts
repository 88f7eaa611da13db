import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { COMPACTED_OUTPUTS_DIR, createResultStore } from './result-store.js';
import type { ResultStore, StoredResult } from './result-store.js';
import { readFileNoFollow, realFolder } from './safe-fs.js';
import { safeName } from './safe-name.js';
import { parseStoredResult } from './stored-records.js';
import { createTaskStore } from './task-store.js';
import type { CallRecord, TaskStore } from './task-store.js';

/** A saved call as a reader pages through it: compacted (with its model view) or recorded raw. */
export interface SavedCall extends Pick<StoredResult, 'toolCallId' | 'toolName' | 'input' | 'modelText'> {
  /** The task it belongs to (`null`: none). */
  taskId: string | null;
  /** The raw output (for a failed call: its error). */
  output: unknown;
  /** Whether the call's result or input was compacted (then `record` is the compacted record). */
  compacted: boolean;
  /** The stored record it was read from. */
  record: StoredResult | CallRecord;
}

/** Where saved calls are read from: the compacted results first, then the raw call records. */
export interface SavedCallReader {
  /** Reads one call of one task. */
  read(taskId: string | undefined, toolCallId: string): Promise<SavedCall | undefined>;
}

/** A saved call from a compacted result (`compacted`) or a raw call record. */
function savedCall(record: StoredResult | CallRecord): SavedCall {
  const compacted = 'strategy' in record;
  return {
    taskId: record.taskId,
    toolCallId: record.toolCallId,
    toolName: record.toolName,
    input: record.input,
    output: !compacted && record.error !== undefined ? { error: record.error } : record.output,
    modelText: compacted ? record.modelText : null,
    compacted,
    record,
  };
}

/** A reader over a result store and (optionally) a task store. */
export function savedCallReader(results: ResultStore, tasks?: TaskStore): SavedCallReader {
  return {
    async read(taskId, toolCallId) {
      const stored = await results.read(taskId, toolCallId);
      if (stored) return savedCall(stored);
      if (!tasks || taskId === undefined) return undefined;
      const call = await tasks.readCall(taskId, toolCallId);
      return call ? savedCall(call) : undefined;
    },
  };
}

/**
 * Finds a saved call in a data dir: in `taskId` when given, else in every persisted task (and
 * every folder of compacted results, for tasks saved before task records existed). Never follows
 * a symlink. Resolves with `undefined` when no task holds it.
 */
export async function findSavedCall(options: {
  dataDir: string;
  toolCallId: string;
  taskId?: string | undefined;
}): Promise<SavedCall | undefined> {
  const results = createResultStore({ dataDir: options.dataDir });
  const tasks = createTaskStore({ dataDir: options.dataDir });
  const reader = savedCallReader(results, tasks);
  if (options.taskId !== undefined) return reader.read(options.taskId, options.toolCallId);
  for (const task of await tasks.listTasks()) {
    const found = await reader.read(task.taskId, options.toolCallId);
    if (found) return found;
  }
  // Compacted results of tasks with no task record: folder names are encoded ids, the record names its own task.
  const base = await realFolder(options.dataDir, [COMPACTED_OUTPUTS_DIR], false);
  if (base === undefined) return undefined;
  const files = new Set(
    [safeName(options.toolCallId), safeName(options.toolCallId, { caseInsensitive: true })].map((n) => `${n}.json`),
  );
  for (const entry of await readdir(base, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    for (const file of files) {
      const path = join(base, entry.name, file);
      const text = await readFileNoFollow(path);
      if (text === undefined) continue;
      const record = parseStoredResult(text, path, options.toolCallId);
      if (record.toolCallId === options.toolCallId) return savedCall(record);
    }
  }
  return undefined;
}
