import { stepCountIs, streamText } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineTool, resolveToolSet } from '@aibuddy/registry';
import { scriptedModel } from '@aibuddy/test-utils';
import { createAiTools, DEFAULT_HEARTBEAT_INTERVAL_MS } from './create-ai-tools.js';
import type { RuntimeEvent } from './events.js';
import { HEARTBEAT_CHUNK, isHeartbeatChunk } from './heartbeat-stream.js';

/** A tool that stays silent for `ms` (no output, no own heartbeat), then answers. */
function silentTool(ms: number) {
  return defineTool({
    name: 'silent',
    description: 'Waits without a word.',
    inputSchema: z.object({}),
    execute: (_input, { signal }) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => resolve('finished after the silence'), ms);
        signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
      }),
  });
}

async function toolsFor(ms: number, heartbeatIntervalMs: number, events: RuntimeEvent[]) {
  const tool = silentTool(ms);
  const set = await resolveToolSet({ configs: [{ key: 's', toolNames: ['silent'], create: () => [tool] }] });
  return createAiTools(set, { heartbeatIntervalMs, onEvent: (e) => events.push(e) });
}

afterEach(() => {
  vi.useRealTimers();
});

describe('heartbeats are stream chunks: streamText({ timeout: { chunkMs } })', () => {
  it('keeps a silent 590 ms call alive under a 250 ms chunk timeout; heartbeats never reach the model', async () => {
    // Fake timers drive the tool, the beats and the SDK's chunk timer alike: the count is exact.
    vi.useFakeTimers();
    const events: RuntimeEvent[] = [];
    const model = scriptedModel([{ toolCalls: [{ toolName: 'silent', input: {}, id: 's1' }] }, { text: 'ok' }]);
    const result = streamText({
      model,
      tools: await toolsFor(590, 60, events),
      prompt: 'wait',
      stopWhen: stepCountIs(3),
      timeout: { chunkMs: 250 },
    });
    const preliminary: unknown[] = [];
    let aborted = false;
    const consumed = (async () => {
      for await (const part of result.fullStream) {
        if (part.type === 'tool-result' && part.preliminary) preliminary.push(part.output);
        if (part.type === 'abort' || part.type === 'error') aborted = true;
      }
    })();
    await vi.advanceTimersByTimeAsync(600);
    await consumed;
    expect(aborted).toBe(false);
    expect(await result.text).toBe('ok');
    // The SDK saw the heartbeats as chunks (preliminary results); the final result is the tool's.
    // (the SDK repeats the last value as a preliminary result before the final one)
    // Beats at 60, 120, ..., 540 ms; the result at 590 ms.
    expect(preliminary).toHaveLength(10);
    expect(preliminary.slice(0, -1).every(isHeartbeatChunk)).toBe(true);
    expect(events.filter((e) => e.type === 'heartbeat')).toHaveLength(9);
    expect(preliminary.at(-1)).toBe('finished after the silence');
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({
      model: { type: 'text', value: 'finished after the silence' },
    });
    const lastPrompt = JSON.stringify(model.calls.at(-1)?.prompt);
    expect(lastPrompt).toContain('finished after the silence');
    expect(lastPrompt).not.toContain('heartbeat');
    // Nor the history the SDK hands back for persistence.
    expect(JSON.stringify((await result.response).messages)).not.toContain('heartbeat');
  });

  it('with heartbeats disabled, the chunk timeout aborts the silent call at the execution stage and says why', async () => {
    const events: RuntimeEvent[] = [];
    const model = scriptedModel([{ toolCalls: [{ toolName: 'silent', input: {}, id: 's1' }] }, { text: 'ok' }]);
    const result = streamText({
      model,
      tools: await toolsFor(600, 0, events),
      prompt: 'wait',
      stopWhen: stepCountIs(3),
      timeout: { chunkMs: 250 },
    });
    let abortReason: string | undefined;
    for await (const part of result.fullStream) if (part.type === 'abort') abortReason = part.reason ?? '';
    expect(abortReason).toMatch(/Chunk timeout of 250ms exceeded/);
    await vi.waitFor(() => expect(events.find((e) => e.type === 'tool-result')).toBeDefined());
    const failed = events.find((e) => e.type === 'tool-result');
    expect(failed).toMatchObject({ error: { stage: 'execution' } });
    expect(failed?.type === 'tool-result' && failed.error?.message).toMatch(/chunk timeout.*heartbeats are disabled/);
    expect(events.some((e) => e.type === 'heartbeat')).toBe(false);
  });

  it('awaiting execute directly still gives the result (the iterable is also a promise)', async () => {
    const events: RuntimeEvent[] = [];
    const tools = await toolsFor(10, 0, events);
    const output = await tools.silent!.execute!({}, { toolCallId: 'd1', messages: [] });
    expect(output).toBe('finished after the silence');
  });

  it('yields each beat once, then the final result last', async () => {
    vi.useFakeTimers();
    const events: RuntimeEvent[] = [];
    const tools = await toolsFor(130, 40, events);
    const seen: unknown[] = [];
    const consumed = (async () => {
      for await (const value of tools.silent!.execute!({}, { toolCallId: 'i1', messages: [] }) as AsyncIterable<unknown>)
        seen.push(value);
    })();
    await vi.advanceTimersByTimeAsync(130);
    await consumed;
    // Beats at 40, 80 and 120 ms, the result at 130 ms.
    expect(seen).toEqual([HEARTBEAT_CHUNK, HEARTBEAT_CHUNK, HEARTBEAT_CHUNK, 'finished after the silence']);
    expect(events.filter((e) => e.type === 'heartbeat')).toHaveLength(3);
  });
});

describe('the heartbeat period is fixed by the design', () => {
  it('is 30 s by default: no beat at 29.999 s, one at 30 s, two at 60 s', async () => {
    expect(DEFAULT_HEARTBEAT_INTERVAL_MS).toBe(30_000);
    vi.useFakeTimers();
    const events: RuntimeEvent[] = [];
    const tool = silentTool(100_000);
    const set = await resolveToolSet({ configs: [{ key: 's', toolNames: ['silent'], create: () => [tool] }] });
    const tools = createAiTools(set, { onEvent: (e) => events.push(e) });
    const running = tools.silent!.execute!({}, { toolCallId: 'f1', messages: [] }) as Promise<unknown>;
    const beats = () => events.filter((e) => e.type === 'heartbeat').length;
    await vi.advanceTimersByTimeAsync(29_999);
    expect(beats()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(beats()).toBe(1);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(beats()).toBe(2);
    await vi.advanceTimersByTimeAsync(40_000);
    expect(await running).toBe('finished after the silence');
  });
});
