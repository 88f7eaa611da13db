import { generateText, stepCountIs, streamText } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineTool, resolveToolSet, ToolError } from '@aibuddy/registry';
import type { ServerToolConfig } from '@aibuddy/registry';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import { createAiTools } from './create-ai-tools.js';
import type { RuntimeEvent } from './events.js';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => ({ sum: a + b }),
  toModelOutput: ({ output }) => `sum=${output.sum}`,
  toClient: ({ output }) => ({ display: `= ${output.sum}` }),
});

const math: ServerToolConfig = { key: 'math', toolNames: ['add'], create: () => [add] };

async function tools(options: Parameters<typeof createAiTools>[1] = {}) {
  return createAiTools(await resolveToolSet({ configs: [math] }), options);
}

describe('createAiTools under generateText', () => {
  it('runs a valid call; the model sees the model projection, the client the client projection', async () => {
    const events: RuntimeEvent[] = [];
    const model = scriptedModel([{ toolCalls: [{ toolName: 'add', input: { a: 2, b: 3 }, id: 'c1' }] }, { text: 'done' }]);
    const result = await generateText({
      model,
      tools: await tools({ onEvent: (e) => events.push(e) }),
      prompt: 'add',
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe('done');
    expect(lastToolResult(model, 'c1')?.output).toEqual({ type: 'text', value: 'sum=5' });
    const done = events.find((e) => e.type === 'tool-result');
    expect(done).toMatchObject({ toolCallId: 'c1', client: { display: '= 5' }, model: { type: 'text', value: 'sum=5' } });
    expect(events.map((e) => e.type)).toEqual(['tool-call', 'tool-finished', 'tool-result']);
    expect(events[1]).toMatchObject({ type: 'tool-finished', client: { display: '= 5' } });
  });

  it('turns invalid input into a parameters error the model reads, and the loop goes on', async () => {
    const events: RuntimeEvent[] = [];
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'add', input: { a: 'two', b: 3 }, id: 'bad' }] },
      { toolCalls: [{ toolName: 'add', input: { a: 2, b: 3 }, id: 'good' }] },
      { text: 'fixed' },
    ]);
    const result = await generateText({
      model,
      tools: await tools({ onEvent: (e) => events.push(e) }),
      prompt: 'add',
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe('fixed');
    const bad = lastToolResult(model, 'bad');
    expect(bad?.output.type).toBe('error-text');
    expect(String(bad?.output.value)).toMatch(/^\[parameters\] add: invalid input: a: /);
    expect(lastToolResult(model, 'good')?.output).toEqual({ type: 'text', value: 'sum=5' });
    const errorEvent = events.find((e) => e.type === 'tool-result' && e.toolCallId === 'bad');
    expect(errorEvent).toMatchObject({ error: { stage: 'parameters' } });
    // What the event log says the model got is what the model got.
    expect(errorEvent && 'model' in errorEvent ? errorEvent.model : undefined).toEqual(bad?.output);
  });

  it('awaits a validation that answers with a promise (a check on another thread): its issues, or its value, reach the call', async () => {
    const seen: unknown[] = [];
    const checked = defineTool({
      name: 'checked',
      description: 'Checks its input elsewhere.',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
      execute: (input: { n: number }) => {
        seen.push(input);
        return 'ran';
      },
    });
    const asyncChecked = {
      ...checked,
      validate: async (input: unknown) => {
        await new Promise((r) => setTimeout(r, 5));
        const n = (input as { n?: unknown }).n;
        return typeof n === 'number'
          ? { success: true as const, value: { n: n * 10 } }
          : { success: false as const, issues: [{ path: 'n', message: 'must be a number' }] };
      },
    };
    const set = await resolveToolSet({ configs: [{ key: 'c', toolNames: ['checked'], create: () => [asyncChecked] }] });
    const model = scriptedModel([
      {
        toolCalls: [
          { toolName: 'checked', input: { n: 2 }, id: 'ok' },
          { toolName: 'checked', input: { n: 'two' }, id: 'bad' },
        ],
      },
      { text: 'done' },
    ]);
    await generateText({ model, tools: createAiTools(set), prompt: 'go', stopWhen: stepCountIs(3) });
    expect(lastToolResult(model, 'ok')?.output).toEqual({ type: 'text', value: 'ran' });
    expect(lastToolResult(model, 'bad')?.output).toEqual({
      type: 'error-text',
      value: expect.stringMatching(/^\[parameters\] checked: invalid input: n: must be a number/),
    });
    expect(seen).toEqual([{ n: 20 }]);
  });

  it('attributes a thrown error to the execution stage, and keeps a ToolError stage', async () => {
    const boom = defineTool({
      name: 'boom',
      description: 'Fails.',
      inputSchema: { type: 'object', properties: { kind: { type: 'string' } }, required: ['kind'] },
      execute: (input: { kind: string }) => {
        if (input.kind === 'verify') throw new ToolError('hash mismatch', { stage: 'verification', toolName: 'boom' });
        throw new Error('disk on fire');
      },
    });
    const set = await resolveToolSet({ configs: [{ key: 'b', toolNames: ['boom'], create: () => [boom] }] });
    const model = scriptedModel([
      {
        toolCalls: [
          { toolName: 'boom', input: { kind: 'plain' }, id: 'x1' },
          { toolName: 'boom', input: { kind: 'verify' }, id: 'x2' },
        ],
      },
      { text: 'ok' },
    ]);
    await generateText({ model, tools: createAiTools(set), prompt: 'go', stopWhen: stepCountIs(3) });
    expect(String(lastToolResult(model, 'x1')?.output.value)).toBe('[execution] boom: disk on fire');
    expect(String(lastToolResult(model, 'x2')?.output.value)).toBe('[verification] boom: hash mismatch');
  });

  it('passes the AI SDK abort signal to the tool; an aborted call stops at once', async () => {
    let sawAbort = false;
    const slow = defineTool({
      name: 'slow',
      description: 'Waits until aborted.',
      inputSchema: z.object({}),
      execute: (_input, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            sawAbort = true;
            reject(new Error('aborted'));
          });
        }),
    });
    const set = await resolveToolSet({ configs: [{ key: 's', toolNames: ['slow'], create: () => [slow] }] });
    const controller = new AbortController();
    const model = scriptedModel([{ toolCalls: [{ toolName: 'slow', input: {}, id: 's1' }] }, { text: 'never' }]);
    const events: RuntimeEvent[] = [];
    setTimeout(() => controller.abort(), 50);
    await expect(
      generateText({
        model,
        tools: createAiTools(set, { onEvent: (e) => events.push(e) }),
        prompt: 'go',
        abortSignal: controller.signal,
        stopWhen: stepCountIs(3),
      }),
    ).rejects.toThrow();
    expect(sawAbort).toBe(true);
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({ error: { stage: 'execution' } });
  });

  it('emits heartbeats at the configured period while a call runs, and none after it ends', async () => {
    // Fake timers: the count is exact, whatever the load of the machine.
    vi.useFakeTimers();
    try {
      const wait = defineTool({
        name: 'wait',
        description: 'Waits 130 ms.',
        inputSchema: z.object({}),
        execute: () => new Promise((resolve) => setTimeout(() => resolve('done'), 130)),
      });
      const set = await resolveToolSet({ configs: [{ key: 'w', toolNames: ['wait'], create: () => [wait] }] });
      const events: RuntimeEvent[] = [];
      const tools = createAiTools(set, { heartbeatIntervalMs: 40, onEvent: (e) => events.push(e) });
      const running = tools.wait!.execute!({}, { toolCallId: 'w1', messages: [] }) as Promise<unknown>;
      const beats = () => events.filter((e) => e.type === 'heartbeat');
      await vi.advanceTimersByTimeAsync(39);
      expect(beats()).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(beats()).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(80);
      expect(beats()).toHaveLength(3);
      await vi.advanceTimersByTimeAsync(10);
      expect(await running).toBe('done');
      await vi.advanceTimersByTimeAsync(200);
      expect(beats()).toHaveLength(3);
      expect(beats().every((e) => e.toolCallId === 'w1')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a high-impact call when no one can be asked (authorization stage)', async () => {
    const nuke = defineTool({
      name: 'nuke',
      description: 'Deletes everything.',
      inputSchema: z.object({}),
      impact: () => ({ target: '/', scope: 'workspace', impact: 'deletes every file' }),
      execute: () => {
        throw new Error('must not run');
      },
    });
    const set = await resolveToolSet({ configs: [{ key: 'n', toolNames: ['nuke'], create: () => [nuke] }] });
    const model = scriptedModel([{ toolCalls: [{ toolName: 'nuke', input: {}, id: 'n1' }] }, { text: 'ok' }]);
    await generateText({ model, tools: createAiTools(set), prompt: 'go', stopWhen: stepCountIs(3) });
    expect(String(lastToolResult(model, 'n1')?.output.value)).toMatch(/^\[authorization\] nuke:/);
  });
});

describe('createAiTools under streamText', () => {
  it('runs the same tools unchanged', async () => {
    const model = scriptedModel([{ toolCalls: [{ toolName: 'add', input: { a: 1, b: 1 }, id: 's1' }] }, { text: 'two' }]);
    const result = streamText({ model, tools: await tools(), prompt: 'add', stopWhen: stepCountIs(3) });
    expect(await result.text).toBe('two');
    expect(lastToolResult(model, 's1')?.output).toEqual({ type: 'text', value: 'sum=2' });
  });
});
