// Test helpers shared by every package: a scripted model on top of the AI SDK's
// MockLanguageModelV3 (generate and stream), and readers for what the model was sent.
import { MockLanguageModelV3 } from 'ai/test';

type V3Prompt = MockLanguageModelV3['doGenerateCalls'][number]['prompt'];
type V3CallOptions = MockLanguageModelV3['doGenerateCalls'][number];

/** One scripted model step: tool calls, or final text. */
export type ScriptStep = { toolCalls: { toolName: string; input: unknown; id?: string }[]; text?: string } | { text: string };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

function contentOf(step: ScriptStep, index: number) {
  const content: Array<Record<string, unknown>> = [];
  if (step.text) content.push({ type: 'text', text: step.text });
  if ('toolCalls' in step) {
    step.toolCalls.forEach((call, i) =>
      content.push({
        type: 'tool-call',
        toolCallId: call.id ?? `call-${index}-${i}`,
        toolName: call.toolName,
        input: JSON.stringify(call.input),
      }),
    );
  }
  return content;
}

/**
 * A model that answers each call with the next scripted step (the last step repeats).
 * `calls` records every call's options, so tests can assert on the prompts.
 */
export function scriptedModel(steps: ScriptStep[]): MockLanguageModelV3 & { calls: V3CallOptions[] } {
  let next = 0;
  const calls: V3CallOptions[] = [];
  const take = (options: V3CallOptions) => {
    calls.push(options);
    const index = Math.min(next++, steps.length - 1);
    const step = steps[index]!;
    const content = contentOf(step, index);
    const finishReason = 'toolCalls' in step ? 'tool-calls' : 'stop';
    return { content, finishReason, index };
  };
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      const { content, finishReason } = take(options);
      return {
        content,
        finishReason: { unified: finishReason, raw: finishReason },
        usage,
        warnings: [],
      } as never;
    },
    doStream: async (options) => {
      const { content, finishReason } = take(options);
      const parts: Array<Record<string, unknown>> = [{ type: 'stream-start', warnings: [] }];
      for (const part of content) {
        if (part.type === 'text') {
          parts.push(
            { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: part.text },
            { type: 'text-end', id: 't' },
          );
        } else parts.push(part);
      }
      parts.push({ type: 'finish', finishReason: { unified: finishReason, raw: finishReason }, usage });
      return {
        stream: new ReadableStream({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      } as never;
    },
  });
  return Object.assign(model, { calls });
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
