import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelMessage } from 'ai';
import type { ToolStage } from '@aibuddy/registry';
import { CompactorError } from './errors.js';
import { atomicWriteFile, readFileNoFollow, realFolder } from './safe-fs.js';
import { safeName } from './safe-name.js';
import { callRecordSchema, historyRecordSchema, parseRecord, taskRecordSchema } from './stored-records.js';

/** The folder under the data dir that holds persisted tasks. */
export const TASKS_DIR = 'tasks';

/** How a task's last run ended (`running` while one is under way, or when it crashed). */
export type TaskStatus = 'running' | 'completed' | 'failed' | 'aborted';

/** A persisted task: what `aibuddy tasks` lists. `<dataDir>/tasks/<taskId>/task.json`. */
export interface TaskRecord {
  /** Format version. */
  version: 1;
  /** The task id. */
  taskId: string;
  /** The workspace the task ran in. */
  workspace: string | null;
  /** The first task text. */
  task: string;
  /** When the first run started (ISO 8601). */
  startedAt: string;
  /** When the record last changed (ISO 8601). */
  updatedAt: string;
  /** Runs so far (1 + resumes). */
  runs: number;
  /** Model calls over all runs. */
  steps: number;
  /** How the last run ended. */
  status: TaskStatus;
  /** The last run's error, with its stage. */
  error?: { stage: string; message: string } | undefined;
}

/** The conversation history of a task, exactly as the AI SDK holds it. `<dataDir>/tasks/<taskId>/history.json`. */
export interface HistoryRecord {
  /** Format version. */
  version: 1;
  /** The task id. */
  taskId: string;
  /** The messages: user turns, assistant turns with tool calls (raw inputs), tool results (model views). */
  messages: ModelMessage[];
  /** When it was written (ISO 8601). */
  updatedAt: string;
}

/** What the store needs to know about a finished call (structurally the runtime's `ToolExecutionEndInfo`). */
export interface FinishedCall {
  /** The call id. */
  toolCallId: string;
  /** The tool. */
  toolName: string;
  /** The input. */
  input: unknown;
  /** The raw output. */
  output?: unknown;
  /** The error (a `ToolError`), when it failed. */
  error?: { stage: ToolStage; message: string } | undefined;
  /** Wall time. */
  durationMs: number;
  /** The task. */
  taskId: string | undefined;
}

/** One call's raw input and output. `<dataDir>/tasks/<taskId>/calls/<toolCallId>.json`. */
export interface CallRecord extends Omit<FinishedCall, 'taskId'> {
  /** Format version. */
  version: 1;
  /** The task id. */
  taskId: string;
  /** When it was written (ISO 8601). */
  createdAt: string;
}

/** Options of {@link createTaskStore}. */
export interface TaskStoreOptions {
  /** The data dir; tasks live under `<dataDir>/tasks/`. */
  dataDir: string;
  /** Receives write failures of background call records (they never fail a call). */
  onWarning?: (error: CompactorError) => void;
}

/** Persists tasks, their histories and every call's raw input and output, never through a symlink. */
export interface TaskStore {
  /** The `tasks` folder. */
  readonly root: string;
  /** Reads a task, or `undefined`. */
  readTask(taskId: string): Promise<TaskRecord | undefined>;
  /** Writes a task atomically. */
  writeTask(record: TaskRecord): Promise<void>;
  /** Every persisted task, most recently updated first. */
  listTasks(): Promise<TaskRecord[]>;
  /** Reads a task's history, or `undefined` when it has none. */
  readHistory(taskId: string): Promise<ModelMessage[] | undefined>;
  /** Writes a task's history atomically. */
  writeHistory(taskId: string, messages: readonly ModelMessage[]): Promise<void>;
  /** Writes one call's record atomically. */
  writeCall(record: CallRecord): Promise<void>;
  /** Reads one call's record, or `undefined`. */
  readCall(taskId: string, toolCallId: string): Promise<CallRecord | undefined>;
  /** Runtime hooks: every finished call of a task is recorded in the background. */
  readonly hooks: { onToolExecutionEnd(info: FinishedCall): void };
  /** Resolves when every background write started so far has settled. */
  whenIdle(): Promise<void>;
}

// Deterministic on every file system: upper-case ids are encoded, so no two ids fold together.
const name = (id: string) => safeName(id, { caseInsensitive: true });

/** Creates a {@link TaskStore} over a data dir. */
export function createTaskStore(options: TaskStoreOptions): TaskStore {
  if (typeof options.dataDir !== 'string' || options.dataDir === '') {
    throw new CompactorError("the task store needs a data dir (dataDir); pass the host's data dir.");
  }
  const { dataDir } = options;
  const root = join(dataDir, TASKS_DIR);
  const pending = new Set<Promise<void>>();

  const folder = (taskId: string, create: boolean, ...below: string[]) =>
    realFolder(dataDir, [TASKS_DIR, name(taskId), ...below], create);
  const readJson = async <T>(
    dir: string | undefined,
    file: string,
    parse: (text: string, path: string) => T,
  ): Promise<T | undefined> => {
    if (dir === undefined) return undefined;
    const path = join(dir, file);
    const text = await readFileNoFollow(path);
    return text === undefined ? undefined : parse(text, path);
  };

  const store: TaskStore = {
    root,
    async readTask(taskId) {
      const record = await readJson(await folder(taskId, false), 'task.json', (t, p) =>
        parseRecord(taskRecordSchema, t, p, `the record of task "${taskId}"`),
      );
      return record?.taskId === taskId ? (record as TaskRecord) : undefined;
    },
    async writeTask(record) {
      await atomicWriteFile((await folder(record.taskId, true))!, 'task.json', JSON.stringify(record));
    },
    async listTasks() {
      const base = await realFolder(dataDir, [TASKS_DIR], false);
      if (base === undefined) return [];
      const out: TaskRecord[] = [];
      for (const entry of await readdir(base, { withFileTypes: true })) {
        // Links are never followed; a broken record is reported by name, not skipped silently.
        if (!entry.isDirectory()) continue;
        const record = await readJson(join(base, entry.name), 'task.json', (t, p) =>
          parseRecord(taskRecordSchema, t, p, 'a task record'),
        );
        if (record) out.push(record as TaskRecord);
      }
      return out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    },
    async readHistory(taskId) {
      const record = await readJson(await folder(taskId, false), 'history.json', (t, p) =>
        parseRecord(historyRecordSchema, t, p, `the history of task "${taskId}"`),
      );
      return record?.taskId === taskId ? (record.messages as ModelMessage[]) : undefined;
    },
    async writeHistory(taskId, messages) {
      const record: HistoryRecord = { version: 1, taskId, messages: [...messages], updatedAt: new Date().toISOString() };
      await atomicWriteFile((await folder(taskId, true))!, 'history.json', JSON.stringify(record));
    },
    async writeCall(record) {
      await atomicWriteFile(
        (await folder(record.taskId, true, 'calls'))!,
        `${name(record.toolCallId)}.json`,
        JSON.stringify(record),
      );
    },
    async readCall(taskId, toolCallId) {
      const record = await readJson(await folder(taskId, false, 'calls'), `${name(toolCallId)}.json`, (t, p) =>
        parseRecord(callRecordSchema, t, p, `the record of call "${toolCallId}"`, toolCallId),
      );
      return record?.taskId === taskId && record.toolCallId === toolCallId ? (record as CallRecord) : undefined;
    },
    hooks: {
      onToolExecutionEnd(info) {
        if (info.taskId === undefined) return;
        const record: CallRecord = {
          version: 1,
          taskId: info.taskId,
          toolCallId: info.toolCallId,
          toolName: info.toolName,
          input: info.input,
          ...(info.error === undefined
            ? { output: info.output }
            : { error: { stage: info.error.stage, message: info.error.message } }),
          durationMs: info.durationMs,
          createdAt: new Date().toISOString(),
        };
        const job = store.writeCall(record).catch((error: unknown) => {
          const wrapped = CompactorError.isInstance(error)
            ? error
            : new CompactorError(`could not save call "${info.toolCallId}": ${(error as Error)?.message}`, {
                stage: 'execution',
                toolCallId: info.toolCallId,
                cause: error,
              });
          try {
            options.onWarning?.(wrapped);
          } catch {
            // A failing log sink never breaks a call.
          }
        });
        pending.add(job);
        void job.finally(() => pending.delete(job));
      },
    },
    async whenIdle() {
      await Promise.allSettled([...pending]);
    },
  };
  return store;
}
