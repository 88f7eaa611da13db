import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import type { LanguageModelV3 } from './language-model-v3.js';
import { withUniqueToolCallIds } from './unique-tool-call-ids.js';

type StreamPart = Awaited<ReturnType<LanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;
type Content = Awaited<ReturnType<LanguageModelV3['doGenerate']>>['content'][number];

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const finish = (unified: 'tool-calls' | 'stop') => ({ type: 'finish' as const, usage, finishReason: { unified, raw: unified } });

/** A streamed call: input start, one delta, end, then the call. */
function streamedCall(id: string, text: string): StreamPart[] {
  const input = JSON.stringify({ text });
  return [
    { type: 'tool-input-start', id, toolName: 'echo' },
    { type: 'tool-input-delta', id, delta: input },
    { type: 'tool-input-end', id },
    { type: 'tool-call', toolCallId: id, toolName: 'echo', input },
  ];
}
const bareCall = (id: string, text: string): StreamPart => ({
  type: 'tool-call',
  toolCallId: id,
  toolName: 'echo',
  input: JSON.stringify({ text }),
});

function echoTool(seen: Array<{ id: string; text: string }>) {
  return tool({
    inputSchema: jsonSchema<{ text: string }>({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }),
    execute: async ({ text }, { toolCallId }) => {
      seen.push({ id: toolCallId, text });
      return `echo ${text}`;
    },
  });
}

/** Tool call ids of the assistant messages and the results of the tool messages in a prompt. */
function idsOfPrompt(prompt: Parameters<LanguageModelV3['doGenerate']>[0]['prompt']) {
  const calls: string[] = [];
  const results: Array<{ id: string; output: unknown }> = [];
  for (const message of prompt) {
    if (message.role === 'assistant')
      for (const part of message.content) if (part.type === 'tool-call') calls.push(part.toolCallId);
    if (message.role === 'tool')
      for (const part of message.content)
        if (part.type === 'tool-result') results.push({ id: part.toolCallId, output: part.output });
  }
  return { calls, results };
}

describe('withUniqueToolCallIds', () => {
  it('streamed: two calls of a response with one id, and the id again in a later step, become three calls', async () => {
    const steps: StreamPart[][] = [
      [...streamedCall('call_0', 'one'), ...streamedCall('call_0', 'two'), finish('tool-calls')],
      [bareCall('call_0', 'three'), bareCall('call_0', 'four'), finish('tool-calls')],
      [
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'done' },
        { type: 'text-end', id: 't' },
        finish('stop'),
      ],
    ];
    let index = 0;
    const inner = new MockLanguageModelV3({
      doStream: async () => ({ stream: convertArrayToReadableStream(steps[index++]!) }),
    });
    const seen: Array<{ id: string; text: string }> = [];
    const result = streamText({
      model: withUniqueToolCallIds(inner),
      prompt: 'go',
      tools: { echo: echoTool(seen) },
      stopWhen: stepCountIs(5),
    });
    await result.consumeStream();
    expect(seen.sort((a, b) => a.text.localeCompare(b.text))).toEqual([
      { id: 'call_0_4', text: 'four' },
      { id: 'call_0', text: 'one' },
      { id: 'call_0_3', text: 'three' },
      { id: 'call_0_2', text: 'two' },
    ]);
    const last = idsOfPrompt(inner.doStreamCalls.at(-1)!.prompt);
    expect(last.calls).toEqual(['call_0', 'call_0_2', 'call_0_3', 'call_0_4']);
    expect(last.results.map((r) => r.id)).toEqual(last.calls);
    // Each result is its own call's.
    expect(last.results.map((r) => (r.output as { value: string }).value)).toEqual([
      'echo one',
      'echo two',
      'echo three',
      'echo four',
    ]);
  });

  it('generated: the same through doGenerate, and an id of the prompt is never given again', async () => {
    const answers: Content[][] = [
      [bareCall('dup', 'one') as Content, bareCall('dup', 'two') as Content],
      [{ type: 'text', text: 'done' }],
    ];
    let index = 0;
    const inner = new MockLanguageModelV3({
      doGenerate: async () => ({
        content: answers[index++]!,
        finishReason: { unified: index === 1 ? 'tool-calls' : 'stop', raw: undefined },
        usage,
        warnings: [],
      }),
    });
    const seen: Array<{ id: string; text: string }> = [];
    await generateText({
      model: withUniqueToolCallIds(inner),
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'dup', toolName: 'echo', input: { text: 'old' } }] },
        {
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: 'dup', toolName: 'echo', output: { type: 'text', value: 'echo old' } }],
        },
      ],
      tools: { echo: echoTool(seen) },
      stopWhen: stepCountIs(5),
    });
    expect(seen).toEqual([
      { id: 'dup_2', text: 'one' },
      { id: 'dup_3', text: 'two' },
    ]);
    expect(idsOfPrompt(inner.doGenerateCalls.at(-1)!.prompt).calls).toEqual(['dup', 'dup_2', 'dup_3']);
  });

  it('ids that are unique pass through untouched, part for part', async () => {
    const parts: StreamPart[] = [...streamedCall('a', 'one'), ...streamedCall('b', 'two'), finish('tool-calls')];
    const inner = new MockLanguageModelV3({ doStream: async () => ({ stream: convertArrayToReadableStream(parts) }) });
    const { stream } = await withUniqueToolCallIds(inner).doStream({
      prompt: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
    });
    const out: StreamPart[] = [];
    for await (const part of stream as unknown as AsyncIterable<StreamPart>) out.push(part);
    expect(out).toHaveLength(parts.length);
    for (const [i, part] of out.entries()) expect(part).toBe(parts[i]);
  });
});
