import { InvalidToolInputError, NoSuchToolError, stepCountIs, streamText } from 'ai';
import { ToolError } from '@aibuddy/registry';
import type { ToolStage } from '@aibuddy/registry';
import { composeAgent } from './compose.js';
import type { ComposeAgentOptions, ComposedAgent } from './compose.js';
import { AgentStartupError } from './errors.js';
import type { AgentEvent } from './events.js';
import { withModelRequestEvents } from './model-request-middleware.js';
import type { Renderer } from './renderer.js';

/** Model calls a run may make before it is stopped. */
export const DEFAULT_MAX_STEPS = 40;

/** Options of {@link runTask}: the composition plus the task. */
export interface RunTaskOptions extends ComposeAgentOptions {
  /** What the agent should do. */
  task: string;
  /** Model calls at most (default {@link DEFAULT_MAX_STEPS}). */
  maxSteps?: number;
  /** Shows the run in a terminal. */
  renderer?: Renderer;
  /** Called once the agent is composed, before the first model call (the CLI prints the tool set). */
  onComposed?: (agent: ComposedAgent) => void;
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

function describeError(error: unknown): { stage: string; message: string } {
  if (ToolError.isInstance(error)) return { stage: error.stage, message: error.message };
  if (AgentStartupError.isInstance(error)) return { stage: error.stage, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  const stage = /^\[(\w+)\]/.exec(message)?.[1] ?? 'model';
  return { stage, message: message.startsWith('[') ? message : `[${stage}] ${message}` };
}

/** The stage and message of a call the SDK itself refused (unknown tool, unparsable input). */
function streamToolError(error: unknown): { stage: ToolStage; message: string } {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    if (ToolError.isInstance(current)) return { stage: current.stage, message: current.message };
    current = (current as { cause?: unknown }).cause;
  }
  // The SDK may hand over only the message (a string) for calls it refused itself.
  const message = error instanceof Error ? error.message : String(error);
  // A ToolError thrown by a repair function arrives wrapped ("Error repairing tool call: [discovery] ...").
  const tagged = /\[(discovery|parameters|authorization|execution|projection|verification)\]/.exec(message);
  if (tagged) return { stage: tagged[1] as ToolStage, message: message.slice(tagged.index) };
  const stage: ToolStage =
    NoSuchToolError.isInstance(error) || /unavailable tool|no such tool/i.test(message)
      ? 'discovery'
      : InvalidToolInputError.isInstance(error) || /invalid (tool )?input/i.test(message)
        ? 'parameters'
        : 'execution';
  return { stage, message: `[${stage}] ${message}` };
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
  const live = (event: AgentEvent) => {
    if (event.type === 'tool-call') reported.add(event.toolCallId);
    options.renderer?.event(event);
    options.onLiveEvent?.(event);
  };
  const log = (event: AgentEvent) => options.onEvent?.(event);
  const emit = (event: AgentEvent) => {
    live(event);
    log(event);
  };
  const agent = await composeAgent({ ...options, onEvent: log, onLiveEvent: live });
  options.onComposed?.(agent);
  const maxSteps = options.maxSteps ?? DEFAULT_MAX_STEPS;
  let steps = 0;
  let text = '';
  let failure: unknown;
  let aborted = false;
  let lastFinish: string | undefined;

  emit({
    type: 'run-start',
    taskId: agent.taskId,
    task: options.task,
    workspace: agent.workspace,
    model: agent.model.spec,
    deferPath: agent.report.deferPath,
  });

  try {
    const model = withModelRequestEvents(agent.model.model, (event) => {
      steps = event.step + 1;
      emit(event);
    });
    const result = streamText({
      model,
      system: agent.system,
      prompt: options.task,
      ...agent.callSettings,
      stopWhen: stepCountIs(maxSteps),
      ...(options.signal ? { abortSignal: options.signal } : {}),
      // Retries would replay scripted steps and hide wire errors in tests; a person can rerun.
      maxRetries: 0,
    });
    for await (const part of result.fullStream) {
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
          failure ??= part.error;
          break;
        case 'abort':
          aborted = true;
          break;
        case 'tool-error':
          if (!reported.has(part.toolCallId)) {
            const { stage, message } = streamToolError(part.error);
            // What the SDK sends the model for a refused call: the error's message as it is.
            const sent = part.error instanceof Error ? part.error.message : String(part.error);
            emit({ type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
            emit({
              type: 'tool-result',
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              client: { error: { stage, message } },
              model: { type: 'error-text', value: sent },
              error: { stage, message },
              durationMs: 0,
            });
          }
          break;
        default:
          break;
      }
    }
  } catch (error) {
    if (options.signal?.aborted) aborted = true;
    else failure ??= error;
  } finally {
    await agent.close();
  }

  if (options.signal?.aborted) aborted = true;
  let status: RunTaskResult['status'];
  let error: RunTaskResult['error'];
  if (aborted) {
    status = 'aborted';
    const reason: unknown = options.signal?.reason;
    error = { stage: 'execution', message: `[execution] the run was stopped: ${reason instanceof Error ? reason.message : String(reason ?? 'aborted')}` };
  } else if (failure !== undefined) {
    status = 'failed';
    error = describeError(failure);
  } else if (lastFinish === 'tool-calls' && steps >= maxSteps) {
    status = 'failed';
    error = { stage: 'model', message: `[model] the run reached its limit of ${maxSteps} model calls before the model finished.` };
  } else {
    status = 'completed';
  }
  emit({ type: 'run-end', status, steps, ...(error ? { error } : {}) });
  return { status, text: text.trimEnd(), steps, ...(error ? { error } : {}), taskId: agent.taskId, workspace: agent.workspace, dataDir: agent.dataDir };
}
