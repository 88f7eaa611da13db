// Test helpers shared by every package: the scripted model (the runtime's replay model, which the
// CLI also plays) and readers for what the model was sent.
//
// The model is imported by path, not as `@aibuddy/runtime`: every package (the runtime included)
// has this folder as a dev dependency, so declaring the runtime here would close a cycle in the
// build graph. Tests run from source, so the path is all they need.
import { ReplayLanguageModel } from '../../packages/runtime/src/replay/index.js';
import type { ReplayCallOptions, ReplayStep } from '../../packages/runtime/src/replay/index.js';

type V3Prompt = ReplayCallOptions['prompt'];
type V3CallOptions = ReplayCallOptions;

/** One scripted model step: tool calls, or final text. */
export type ScriptStep = ReplayStep;

/**
 * A model that answers each call with the next scripted step (the last step repeats).
 * `calls` records every call's options, so tests can assert on the prompts.
 */
export function scriptedModel(steps: ScriptStep[]): ReplayLanguageModel {
  return new ReplayLanguageModel({ steps }, { repeatLastStep: true, streamChunkSize: Number.MAX_SAFE_INTEGER });
}

/** Every tool-result part in a prompt, in order. */
export function toolResultsIn(
  prompt: V3Prompt,
): Array<{ toolCallId: string; toolName: string; output: { type: string; value?: unknown; reason?: string } }> {
  const results: Array<{ toolCallId: string; toolName: string; output: { type: string; value?: unknown } }> = [];
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result') results.push(part as never);
    }
  }
  return results;
}

/** The tool result for `toolCallId` in the last prompt the model received. */
export function lastToolResult(model: { calls: V3CallOptions[] }, toolCallId: string) {
  const prompt = model.calls.at(-1)?.prompt ?? [];
  return toolResultsIn(prompt).find((r) => r.toolCallId === toolCallId);
}

/**
 * What the model was told about `toolCallId` in its last prompt, as JSON text (a denied call has
 * no `value`, only a reason). Throws when the prompt holds no result for it, so a missing result
 * fails the test instead of matching nothing.
 */
export function lastToolResultText(model: { calls: V3CallOptions[] }, toolCallId: string): string {
  const result = lastToolResult(model, toolCallId);
  if (!result) throw new Error(`no tool result for ${toolCallId} in the last prompt`);
  return JSON.stringify(result.output);
}
