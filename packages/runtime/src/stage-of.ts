import { InvalidToolInputError, NoSuchToolError } from 'ai';
import { TOOL_STAGES, ToolError } from '@aibuddy/registry';
import type { ToolStage } from '@aibuddy/registry';

/** A failure with the lifecycle stage it belongs to. */
export interface StagedFailure {
  /** The stage. */
  stage: ToolStage;
  /** The message, starting with `[stage]`. */
  message: string;
}

/** `[stage]` anywhere in a message: a ToolError that travelled as text (wrapped by the SDK). */
const STAGE_TAG = new RegExp(`\\[(${TOOL_STAGES.join('|')})\\]`);

/** The `ToolError` in an error's cause chain (a few levels deep, as the AI SDK wraps them), if any. */
export function toolErrorIn(error: unknown): ToolError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (ToolError.isInstance(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The stage of any error a tool call can end with, for calls the runtime never saw (the AI SDK
 * refused them: an unknown tool, unparsable input, a failed repair). A `ToolError` anywhere in the
 * cause chain names its own stage; a message carrying a `[stage]` tag keeps it; the SDK's own
 * errors map to `discovery` (no such tool) and `parameters` (invalid input); the rest is `execution`.
 */
export function stageOfToolFailure(error: unknown): StagedFailure {
  const toolError = toolErrorIn(error);
  if (toolError) return { stage: toolError.stage, message: toolError.message };
  const message = error instanceof Error ? error.message : String(error);
  const tagged = STAGE_TAG.exec(message);
  if (tagged) return { stage: tagged[1] as ToolStage, message: message.slice(tagged.index) };
  // The SDK sometimes hands over only the message of its own errors: their wording decides then.
  const stage: ToolStage =
    NoSuchToolError.isInstance(error) || /unavailable tool|no such tool/i.test(message)
      ? 'discovery'
      : InvalidToolInputError.isInstance(error) || /invalid (tool )?input/i.test(message)
        ? 'parameters'
        : 'execution';
  return { stage, message: `[${stage}] ${message}` };
}
