import type { ToolCallEvent, ToolResultEvent } from './events.js';
import { stageOfRunFailure } from './run-failure.js';
import type { RunFailure } from './run-failure.js';
import { stageOfToolFailure } from './stage-of.js';

/** What a `streamText` run's stream reported by its end. */
export interface RunEndInput {
  /** The run's own stop signal (a person, a deadline): aborted, the run was stopped. */
  signal?: AbortSignal | undefined;
  /** The stream reported an `abort` part. */
  streamAborted: boolean;
  /** The reason of the stream's `abort` part (the AI SDK's chunk timeout says `Chunk timeout…`). */
  streamAbortReason?: string | undefined;
  /** The first error of the run (an `error` part or a throw), when there was one. */
  failure?: { error: unknown } | undefined;
  /** The finish reason of the last step. */
  lastFinishReason?: string | undefined;
  /** Model calls made, and the limit the run had. */
  steps: number;
  maxSteps: number;
  /** The stream's chunk timeout. */
  chunkTimeoutMs: number;
  /** Heartbeats were off (interval 0), so a silent tool call could not keep the stream alive. */
  heartbeatsOff?: boolean;
  /** How to fix a chunk timeout, in this host's words (default: plain sentences). */
  fixes?: { heartbeatsOff?: string; slow?: string };
}

/** How a run ended: its status and, unless completed, the failure with its stage. */
export interface RunEnd {
  /** `completed`: the model finished; `failed`: an error or the step limit ended it; `aborted`: it was stopped. */
  status: 'completed' | 'failed' | 'aborted';
  /** Why, with its stage (absent when completed). */
  error?: RunFailure;
}

/**
 * How a `streamText` run ended: a stop of its own signal is `aborted` at the execution stage; a
 * chunk timeout is `aborted` saying why the stream went silent (heartbeats off, or a slow model or
 * tool); an error is `failed` with its stage (`stageOfRunFailure`); a run that still wanted tools
 * at its step limit is `failed` at the model stage; anything else is `completed`.
 */
export function runEndOf(input: RunEndInput): RunEnd {
  const stopped = input.signal?.aborted === true;
  if (input.streamAborted && !stopped && /^Chunk timeout/i.test(input.streamAbortReason ?? '')) {
    const fix = input.heartbeatsOff
      ? `: heartbeats are disabled, so a tool call silent for longer than the chunk timeout is aborted. Fix: ${input.fixes?.heartbeatsOff ?? 'enable heartbeats or raise the chunk timeout.'}`
      : `. Fix: ${input.fixes?.slow ?? 'raise the chunk timeout if the model or a tool needs longer.'}`;
    const message = `[execution] the stream's chunk timeout of ${input.chunkTimeoutMs / 1000} s passed with no chunk (${input.streamAbortReason}), so the run was aborted${fix}`;
    return { status: 'aborted', error: { stage: 'execution', message } };
  }
  if (input.streamAborted || stopped) {
    const reason: unknown = input.signal?.reason;
    const why = reason instanceof Error ? reason.message : String(reason ?? 'aborted');
    return { status: 'aborted', error: { stage: 'execution', message: `[execution] the run was stopped: ${why}` } };
  }
  if (input.failure) return { status: 'failed', error: stageOfRunFailure(input.failure.error) };
  if (input.lastFinishReason === 'tool-calls' && input.steps >= input.maxSteps) {
    const message = `[model] the run reached its limit of ${input.maxSteps} model calls before the model finished.`;
    return { status: 'failed', error: { stage: 'model', message } };
  }
  return { status: 'completed' };
}

/**
 * The events of a call the AI SDK refused before the runtime saw it (an unknown tool, input that
 * does not parse, a failed repair), from its `tool-error` stream part: a `tool-call` and a
 * `tool-result` whose model view is exactly the error text the SDK sends the model.
 */
export function refusedCallEvents(part: {
  toolCallId: string;
  toolName: string;
  input: unknown;
  error: unknown;
}): [ToolCallEvent, ToolResultEvent] {
  const { stage, message } = stageOfToolFailure(part.error);
  const sent = part.error instanceof Error ? part.error.message : String(part.error);
  return [
    { type: 'tool-call', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input },
    {
      type: 'tool-result',
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      client: { error: { stage, message } },
      model: { type: 'error-text', value: sent },
      error: { stage, message },
      durationMs: 0,
    },
  ];
}
