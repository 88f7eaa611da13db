import { resolve } from 'node:path';
import { stepCountIs, streamText } from 'ai';
import { CompactorError, defaultDataDir, openTaskHistory } from '@aibuddy/compactor';
import type { TaskHistory } from '@aibuddy/compactor';
import { refusedCallEvents, runEndOf, withModelRequestEvents, withUniqueToolCallIds } from '@aibuddy/runtime';
import { composeAgent } from './compose.js';
import type { ComposeAgentOptions, ComposedAgent } from './compose.js';
import { AgentStartupError } from './errors.js';
import type { AgentEvent, AgentEventSink } from './events.js';
import type { Renderer } from './renderer.js';

/** Model calls a run may make before it is stopped. */
const DEFAULT_MAX_STEPS = 40;
/** The stream's chunk timeout when none is given (`--chunk-timeout`): heartbeats keep live calls under it. */
const DEFAULT_CHUNK_TIMEOUT_MS = 120_000;

/** Options of {@link runTask}: the composition plus the task. */
export interface RunTaskOptions extends ComposeAgentOptions {
  /** What the agent should do. */
  task: string;
  /** Model calls at most (default 40). */
  maxSteps?: number;
  /** Shows the run in a terminal. */
  renderer?: Renderer;
  /** Called once the agent is composed, before the first model call (the CLI prints the tool set). */
  onComposed?: (agent: ComposedAgent) => void;
  /** Continue the persisted task `taskId`: its history and discovered tools (`--resume`). */
  resume?: boolean;
  /** The stream's chunk timeout (default 120 s). */
  chunkTimeoutMs?: number;
}

/** How a run ended. */
export interface RunTaskResult {
  /** `completed`: the model finished; `failed`: an error ended it; `aborted`: it was stopped. */
  status: 'completed' | 'failed' | 'aborted';
  /** The assistant's text over all steps. */
  text: string;
  /** Model calls made. */
  steps: number;
  /** The error, for failed and aborted runs, with its stage. */
  error?: { stage: string; message: string };
  /** The task id. */
  taskId: string;
  /** The workspace root. */
  workspace: string;
  /** The data folder. */
  dataDir: string;
}

async function openHistory(options: RunTaskOptions, dataDir: string): Promise<TaskHistory> {
  try {
    return await openTaskHistory({
      dataDir,
      taskId: options.taskId,
      task: options.task,
      workspace: resolve(options.workspace),
      resume: options.resume === true,
      onWarning: options.onWarning,
    });
  } catch (error) {
    if (!CompactorError.isInstance(error)) throw error;
    // The store names the stage and the fix; the CLI adds where its own commands help.
    const what = error.message.replace(/^\[\w+\] /, '').replace(/ Fix: .*$/s, '');
    const missing = error.stage === 'discovery';
    throw new AgentStartupError(error.stage, missing ? `--resume: ${what}` : what, {
      fix: missing
        ? '"aibuddy tasks" lists the persisted tasks (same --workspace or --data-dir); drop --resume to start a new task.'
        : 'pass a --data-dir you can write to, outside the workspace.',
      cause: error,
    });
  }
}

/**
 * Composes the agent and runs one task with `streamText` until the model stops, the step limit is
 * reached, or `signal` aborts it (which kills running commands). Never throws for run failures:
 * the result says how it ended. Composition errors (`AgentStartupError`, a registry mismatch) throw.
 */
export async function runTask(options: RunTaskOptions): Promise<RunTaskResult> {
  // Calls that produced events through the runtime; the others (a call
  // to an unknown tool, input the SDK rejected) are reported from the stream.
  const reported = new Set<string>();
  // The sinks are the caller's code (an event log on a full disk, a display that went away): one
  // that throws is reported once and the run goes on, as the runtime does for its own sinks.
  const guard = (name: string, sink: AgentEventSink | undefined): AgentEventSink => {
    let warned = false;
    return (event) => {
      try {
        sink?.(event);
      } catch (error) {
        if (warned) return;
        warned = true;
        options.onWarning?.(
          `${name} threw (${error instanceof Error ? error.message : String(error)}); later failures of it are not reported, the run goes on.`,
        );
      }
    };
  };
  const renderEvent = guard('the renderer', options.renderer ? (event) => options.renderer?.event(event) : undefined);
  const liveSink = guard('onLiveEvent', options.onLiveEvent);
  const live = (event: AgentEvent) => {
    if (event.type === 'tool-call') reported.add(event.toolCallId);
    renderEvent(event);
    liveSink(event);
  };
  const log = guard('onEvent', options.onEvent);
  const emit = (event: AgentEvent) => {
    live(event);
    log(event);
  };
  const dataDir = resolve(options.dataDir ?? defaultDataDir(options.workspace));
  const history = await openHistory(options, dataDir);
  const agent = await composeAgent({
    ...options,
    dataDir,
    hooks: [history.store.hooks],
    taskStore: history.store,
    onEvent: log,
    onLiveEvent: live,
  });
  const chunkTimeoutMs = options.chunkTimeoutMs ?? DEFAULT_CHUNK_TIMEOUT_MS;
  let streamAbortReason: string | undefined;
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  let steps = 0;
  let text = '';
  let failure: { error: unknown } | undefined;
  let aborted = false;
  let lastFinish: string | undefined;

  // From here on the agent holds MCP servers and commands: whatever happens, `finally` closes it.
  try {
    options.onComposed?.(agent);
    emit({
      type: 'run-start',
      taskId: agent.taskId,
      task: options.task,
      workspace: agent.workspace,
      model: agent.model.spec,
      deferPath: agent.report.deferPath,
    });
    // Every call gets an id of its own before anything keys on it (some servers reuse ids).
    const model = withModelRequestEvents(withUniqueToolCallIds(agent.model.model), (event) => {
      steps = event.step + 1;
      emit(event);
    });
    const result = streamText({
      model,
      system: agent.system,
      // The surviving history first (on resume): the compactor's prepareStep rebuilds it and defer
      // re-activates the deferred tools it references, before the first model call.
      messages: history.initialMessages,
      ...agent.callSettings,
      timeout: { chunkMs: chunkTimeoutMs },
      onStepFinish: (step) => history.onStepFinish(step),
      stopWhen: stepCountIs(maxSteps),
      ...(options.signal ? { abortSignal: options.signal } : {}),
      // Retries would replay scripted steps and hide wire errors in tests; a person can rerun.
      maxRetries: 0,
    });
    for await (const part of result.fullStream) {
      history.observe(part);
      switch (part.type) {
        case 'text-delta':
          text += part.text;
          options.renderer?.text(part.text);
          break;
        case 'finish-step':
          lastFinish = part.finishReason;
          if (text && !text.endsWith('\n')) text += '\n';
          options.renderer?.endStep();
          break;
        case 'error':
          failure ??= { error: part.error };
          break;
        case 'abort':
          aborted = true;
          streamAbortReason ??= part.reason;
          break;
        case 'tool-error':
          // A call the SDK refused before the runtime saw it: reported here, once.
          if (!reported.has(part.toolCallId)) for (const event of refusedCallEvents(part)) emit(event);
          break;
        default:
          break;
      }
    }
  } catch (error) {
    if (options.signal?.aborted) aborted = true;
    else failure ??= { error };
  } finally {
    await agent.close();
  }

  const { status, error } = runEndOf({
    signal: options.signal,
    streamAborted: aborted,
    streamAbortReason,
    failure,
    lastFinishReason: lastFinish,
    steps,
    maxSteps,
    chunkTimeoutMs,
    heartbeatsOff: options.heartbeatIntervalMs === 0,
    fixes: {
      heartbeatsOff: 'enable heartbeats (unset AIBUDDY_HEARTBEAT_MS, now 0) or raise --chunk-timeout.',
      slow: 'raise --chunk-timeout if the model or a tool needs longer.',
    },
  });
  await history.finish({ status, steps, error });
  emit({ type: 'run-end', status, steps, ...(error ? { error } : {}) });
  return {
    status,
    text: text.trimEnd(),
    steps,
    ...(error ? { error } : {}),
    taskId: agent.taskId,
    workspace: agent.workspace,
    dataDir: agent.dataDir,
  };
}
