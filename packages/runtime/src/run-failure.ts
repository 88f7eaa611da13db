import { TOOL_STAGES } from '@aibuddy/registry';
import type { ToolStage } from '@aibuddy/registry';
import { toolErrorIn } from './stage-of.js';

/** Where a run (the model loop around the tools) failed: a tool stage, or the model itself. */
export type RunStage = ToolStage | 'model';

/** A run failure with its stage; the message starts with `[stage]`. */
export interface RunFailure {
  /** The stage. */
  stage: RunStage;
  /** The message, starting with `[stage]`. */
  message: string;
}

const RUN_STAGE_TAG = new RegExp(`^\\[(${[...TOOL_STAGES, 'model'].join('|')})\\] `);

/**
 * The stage of an error that ended a run (what `streamText` reported or threw): a `ToolError`
 * anywhere in the cause chain names its own stage; a message that starts with a stage tag keeps it
 * (errors of other packages and of the replay model carry one); anything else is the model's
 * (a provider refused the request, the stream broke).
 */
export function stageOfRunFailure(error: unknown): RunFailure {
  const toolError = toolErrorIn(error);
  if (toolError) return { stage: toolError.stage, message: toolError.message };
  const message = error instanceof Error ? error.message : String(error);
  const tagged = RUN_STAGE_TAG.exec(message);
  if (tagged) return { stage: tagged[1] as RunStage, message };
  return { stage: 'model', message: `[model] ${message}` };
}
