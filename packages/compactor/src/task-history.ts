import type { ModelMessage, TextStreamPart, ToolSet } from 'ai';
import { CompactorError } from './errors.js';
import { createTaskStore } from './task-store.js';
import type { TaskRecord, TaskStatus, TaskStore } from './task-store.js';

/** Options of {@link openTaskHistory}. */
export interface OpenTaskHistoryOptions {
  /** The data dir (outside the workspace). */
  dataDir: string;
  /** The task id. */
  taskId: string;
  /** The task text of this run. */
  task: string;
  /** The workspace. */
  workspace: string;
  /** Continue the persisted task instead of starting it anew. */
  resume: boolean;
  /** Problems that do not stop the run (a call record that could not be saved). */
  onWarning?: ((message: string) => void) | undefined;
}

/** A task's persisted history for one run: what to send first, and what to save as the run goes. */
export interface TaskHistory {
  /** The store (its hooks record every call's raw input and output). */
  readonly store: TaskStore;
  /** The messages of the first model call: the surviving history (on resume) and this run's task. */
  readonly initialMessages: ModelMessage[];
  /** Saves the history after a step (`streamText`'s `onStepFinish`). */
  onStepFinish(step: { response: { messages: readonly ModelMessage[] } }): Promise<void>;
  /** Watches the stream: calls of a step that never finished are saved too, to be repaired on resume. */
  observe(part: TextStreamPart<ToolSet>): void;
  /** Saves the final history and the task's status. Never throws (a warning instead). */
  finish(outcome: { status: TaskStatus; steps: number; error?: { stage: string; message: string } | undefined }): Promise<void>;
}

function storeError(error: unknown, dataDir: string): CompactorError {
  // The store's own errors carry a stage tag already; this one names the stage once.
  const reason = String((error as Error)?.message ?? error).replace(/^\[\w+\] /, '');
  return new CompactorError(
    `the task store under ${dataDir} cannot be used: ${reason}. Fix: use a data dir you can write to, outside the workspace.`,
    { stage: 'execution', cause: error },
  );
}

/**
 * Opens the persisted history of a task for one `streamText` run: on `resume` reads it back
 * (refusing, with a `CompactorError` of stage `discovery`, a task that does not exist), and records the run as it goes, after every step, with the same atomic, symlink-refusing
 * writes as the result store. The context itself is rebuilt by the compactor before the first step
 * (compacted views, interactions as user text, interrupted calls repaired), and the active set by
 * defer from the same messages.
 */
export async function openTaskHistory(options: OpenTaskHistoryOptions): Promise<TaskHistory> {
  const warn = (message: string) => options.onWarning?.(message);
  const store = createTaskStore({ dataDir: options.dataDir, onWarning: (error) => warn(error.message) });
  let previous: TaskRecord | undefined;
  let prior: ModelMessage[] = [];
  try {
    previous = await store.readTask(options.taskId);
    if (options.resume) {
      if (!previous) {
        throw new CompactorError(
          `there is no persisted task "${options.taskId}" under ${options.dataDir} to resume. Fix: list the persisted tasks (listTasks), or start a new task.`,
          { stage: 'discovery' },
        );
      }
      prior = (await store.readHistory(options.taskId)) ?? [];
    }
  } catch (error) {
    throw CompactorError.isInstance(error) && error.stage === 'discovery' ? error : storeError(error, options.dataDir);
  }
  const initialMessages: ModelMessage[] = [...prior, { role: 'user', content: options.task }];
  const now = new Date().toISOString();
  const base: TaskRecord = {
    version: 1,
    taskId: options.taskId,
    workspace: options.workspace,
    task: options.resume && previous ? previous.task : options.task,
    startedAt: options.resume && previous ? previous.startedAt : now,
    updatedAt: now,
    runs: options.resume && previous ? previous.runs + 1 : 1,
    steps: options.resume && previous ? previous.steps : 0,
    status: 'running',
  };
  try {
    await store.writeTask(base);
  } catch (error) {
    throw storeError(error, options.dataDir);
  }

  let saved: ModelMessage[] = initialMessages;
  // Calls of the step under way: kept until the step finishes, so a stop leaves them in the history.
  let openCalls: Array<{ toolCallId: string; toolName: string; input: unknown }> = [];
  const save = async (messages: ModelMessage[]) => {
    try {
      await store.writeHistory(options.taskId, messages);
    } catch (error) {
      warn(
        `[execution] the history of task ${options.taskId} could not be saved: ${CompactorError.isInstance(error) ? error.message : (error as Error)?.message}`,
      );
    }
  };

  return {
    store,
    initialMessages,
    async onStepFinish(step) {
      // The SDK's response messages of a step are cumulative over the run.
      saved = [...initialMessages, ...step.response.messages];
      openCalls = [];
      await save(saved);
    },
    observe(part) {
      if (part.type === 'tool-call' && !part.providerExecuted)
        openCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
    },
    async finish(outcome) {
      await store.whenIdle();
      if (openCalls.length > 0) {
        // A stopped step: its calls go in without results; the next resume gives them an
        // "interrupted" result (rebuildContext), so no provider rejects the history.
        saved = [...saved, { role: 'assistant', content: openCalls.map((c) => ({ type: 'tool-call' as const, ...c })) }];
        await save(saved);
      }
      try {
        await store.writeTask({
          ...base,
          updatedAt: new Date().toISOString(),
          steps: base.steps + outcome.steps,
          status: outcome.status,
          ...(outcome.error ? { error: outcome.error } : {}),
        });
      } catch (error) {
        warn(`[execution] the record of task ${options.taskId} could not be saved: ${(error as Error)?.message}`);
      }
    },
  };
}
