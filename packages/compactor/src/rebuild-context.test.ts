import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, generateText, jsonSchema, stepCountIs, tool } from 'ai';
import type { ModelMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool, resolveToolSet } from '@aibuddy/registry';
import { createAiTools } from '@aibuddy/runtime';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import { createCompactor } from './compactor.js';
import { INTERRUPTED_RESULT_TEXT, rebuildContext } from './rebuild-context.js';
import { createTokenCounter } from './token-counter.js';
import { startAnthropicServer, startOpenAIResponsesServer } from './__fixtures__/wire-servers.js';
import type { WireServer } from './__fixtures__/wire-servers.js';
import { textWithTokens } from './__fixtures__/texts.js';

const counter = createTokenCounter();
let dataDir: string;
let anthropicServer: WireServer;
let openaiServer: WireServer;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'compactor-rebuild-'));
  anthropicServer = await startAnthropicServer();
  openaiServer = await startOpenAIResponsesServer();
});
afterAll(async () => {
  counter.free();
  await Promise.all([anthropicServer.close(), openaiServer.close()]);
  await rm(dataDir, { recursive: true, force: true });
});

const BIG_LOG = textWithTokens(4_000);

/** A history interrupted mid-run: a question, a confirmation, a big result and a call that never returned. */
function interruptedHistory(): ModelMessage[] {
  return [
    { role: 'user', content: 'Deploy the service.' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'I need to know the environment.' },
        { type: 'tool-call', toolCallId: 'q1', toolName: 'ask_user_question', input: { question: 'Which environment?' } },
      ],
    },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'q1',
          toolName: 'ask_user_question',
          output: { type: 'json', value: { answer: 'staging' } },
        },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'r1', toolName: 'read_log', input: { path: 'deploy.log' } },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'confirm', input: { question: 'Run the migration on staging?' } },
      ],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', toolCallId: 'r1', toolName: 'read_log', output: { type: 'text', value: BIG_LOG } },
        {
          type: 'tool-result',
          toolCallId: 'c1',
          toolName: 'confirm',
          output: { type: 'json', value: { approved: false, reason: 'not during business hours' } },
        },
      ],
    },
    {
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'x1', toolName: 'execute', input: { command: 'make deploy' } }],
    },
    // The run was stopped here: x1 never got a result.
    { role: 'user', content: 'I stopped the run; continue carefully.' },
  ];
}

/** A history cut from the front (a context trim kept a result but not its call), with a result that drifted. */
function truncatedHistory(): ModelMessage[] {
  return [
    { role: 'user', content: 'Go on.' },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'old_1', toolName: 'read_log', output: { type: 'text', value: 'old' } }],
    },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'n1', toolName: 'read_log', input: { path: 'a.log' } }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }] },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'n1', toolName: 'read_log', output: { type: 'text', value: 'a' } }],
    },
  ];
}

const tools = {
  read_log: tool({
    description: 'Reads a log.',
    inputSchema: jsonSchema({ type: 'object', properties: { path: { type: 'string' } } }),
  }),
  execute: tool({
    description: 'Runs a command.',
    inputSchema: jsonSchema({ type: 'object', properties: { command: { type: 'string' } } }),
  }),
  view_tool_call: tool({
    description: 'Reads a saved result.',
    inputSchema: jsonSchema({ type: 'object', properties: { toolCallId: { type: 'string' } } }),
  }),
};

describe('rebuildContext', () => {
  it('normalizes interactions, repairs the interrupted call and compacts the big result', async () => {
    const history = interruptedHistory();
    const before = JSON.stringify(history);
    const compactor = createCompactor({ dataDir, tokenCounter: counter });
    const rebuilt = await rebuildContext(history, { compactor, taskId: 'task-r' });
    expect(JSON.stringify(history)).toBe(before); // the input is not mutated

    expect(rebuilt.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'tool',
      'user',
      'assistant',
      'tool',
      'user',
    ]);
    const text = JSON.stringify(rebuilt);
    expect(text).not.toContain('"toolName":"ask_user_question"');
    expect(text).not.toContain('"toolName":"confirm"');
    expect(rebuilt[2]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'You asked me (ask_user_question): Which environment?\nMy answer: staging' }],
    });
    expect(JSON.stringify(rebuilt[5])).toContain('My decision: I reject — not during business hours.');
    const compacted = (rebuilt[4] as { content: Array<{ output: { type: string; value: string } }> }).content[0]!.output;
    expect(compacted.value).toContain('call view_tool_call with {"toolCallId":"r1"}');
    expect(counter.count(compacted.value)).toBeLessThan(4_000);
    expect(rebuilt[7]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'x1',
          toolName: 'execute',
          output: { type: 'error-text', value: INTERRUPTED_RESULT_TEXT },
        },
      ],
    });
    await compactor.close();
  });

  it('on a resumed run (new compactor) reuses the stored compact form instead of compacting again', async () => {
    const events: string[] = [];
    const resumed = createCompactor({ dataDir, tokenCounter: counter, onCompaction: (e) => events.push(e.toolCallId) });
    const rebuilt = await rebuildContext(interruptedHistory(), { compactor: resumed, taskId: 'task-r' });
    expect(JSON.stringify(rebuilt)).toContain('call view_tool_call with {\\"toolCallId\\":\\"r1\\"}');
    expect(events).toEqual([]);
    expect((await resumed.view({ taskId: 'task-r', toolCallId: 'r1', limit: 50_000 })).content).toBe(BIG_LOG);
    await resumed.close();
  });

  it('drops results that answer no call and keeps results that need no repair', async () => {
    const rebuilt = await rebuildContext([
      { role: 'user', content: 'hi' },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'ghost', toolName: 'ls', output: { type: 'text', value: 'x' } }],
      },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'ls', input: {} }] },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'a', toolName: 'ls', output: { type: 'text', value: 'small' } },
          { type: 'tool-result', toolCallId: 'ghost2', toolName: 'ls', output: { type: 'text', value: 'y' } },
        ],
      },
      { role: 'assistant', content: 'done' },
    ]);
    expect(rebuilt).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'ls', input: {} }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'a', toolName: 'ls', output: { type: 'text', value: 'small' } }],
      },
      { role: 'assistant', content: 'done' },
    ]);
  });

  it('moves a result that drifted away from its call back next to it', async () => {
    const rebuilt = await rebuildContext(truncatedHistory());
    expect(rebuilt).toEqual([
      { role: 'user', content: 'Go on.' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'n1', toolName: 'read_log', input: { path: 'a.log' } }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'n1', toolName: 'read_log', output: { type: 'text', value: 'a' } }],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }] },
    ]);
  });

  it('leaves an interaction that failed as a tool exchange (no decision to report)', async () => {
    const rebuilt = await rebuildContext([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'q', toolName: 'ask_user_question', input: { question: '?' } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'q',
            toolName: 'ask_user_question',
            output: { type: 'error-text', value: 'stopped' },
          },
        ],
      },
    ]);
    expect(rebuilt.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });
});

describe('rebuildContext per step (prepareStep) through generateText', () => {
  it('a disposable result is seen in full by the next step, then dropped without a pointer', async () => {
    const scanText = textWithTokens(3_000);
    const scan = defineTool({
      name: 'scan',
      description: 'Scans the workspace; the result is only needed once.',
      inputSchema: { type: 'object', properties: {} },
      disposable: true,
      compact: () => ({ strategy: 'drop' }),
      execute: () => scanText,
    });
    const ls = defineTool({
      name: 'ls',
      description: 'Lists.',
      inputSchema: { type: 'object', properties: {} },
      execute: () => 'a.txt',
    });
    const compactor = createCompactor({ dataDir, tokenCounter: counter });
    const set = await resolveToolSet({ configs: [{ key: 'ws', toolNames: ['scan', 'ls'], create: () => [scan, ls] }] });
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'scan', input: {}, id: 's1' }] },
      { toolCalls: [{ toolName: 'ls', input: {}, id: 'l1' }] },
      { text: 'done' },
    ]);
    await generateText({
      model,
      tools: createAiTools(set, { taskId: 'task-drop', hooks: compactor.hooks }),
      prompt: 'scan',
      stopWhen: stepCountIs(5),
      prepareStep: async ({ messages }) => ({ messages: await rebuildContext(messages, { compactor, taskId: 'task-drop' }) }),
    });
    const resultIn = (call: number) =>
      model.calls[call]!.prompt.flatMap((m) => (m.role === 'tool' ? m.content : [])).find(
        (p) => p.type === 'tool-result' && p.toolCallId === 's1',
      );
    expect(resultIn(1)).toMatchObject({ output: { type: 'text', value: scanText } }); // used in full
    const later = JSON.stringify(resultIn(2));
    expect(later).toContain('dropped from context');
    expect(later).not.toContain('view_tool_call with');
    expect(later.length).toBeLessThan(600);
    expect(lastToolResult(model, 'l1')?.output).toEqual({ type: 'text', value: 'a.txt' });
    await compactor.close();
  });
});

describe('a rebuilt context at the wire (real providers, loopback servers)', () => {
  async function rebuilt() {
    const compactor = createCompactor({ dataDir, tokenCounter: counter });
    const messages = await rebuildContext(interruptedHistory(), { compactor, taskId: 'task-wire' });
    await compactor.close();
    return messages;
  }

  it('@ai-sdk/anthropic: the server rejects the raw interrupted history and accepts the rebuilt one', async () => {
    const anthropic = createAnthropic({ baseURL: anthropicServer.baseURL, apiKey: 'test-key' });
    const model = anthropic('claude-sonnet-4-5');

    // The AI SDK itself refuses the interrupted history; a truncated one it sends, and the API refuses.
    await expect(generateText({ model, tools, messages: interruptedHistory(), maxRetries: 0 })).rejects.toThrow(
      /Tool result is missing for tool call x1/,
    );
    const raw = await generateText({ model, tools, messages: truncatedHistory(), maxRetries: 0 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(raw)).toBe(true);
    expect(anthropicServer.violations.at(-1)).toContain('tool_result old_1 answers no tool_use of the previous message');
    expect((await generateText({ model, tools, messages: await rebuildContext(truncatedHistory()), maxRetries: 0 })).text).toBe(
      'history accepted',
    );

    const result = await generateText({ model, tools, messages: await rebuilt(), maxRetries: 0 });
    expect(result.text).toBe('history accepted');
    expect(anthropicServer.violations.at(-1)).toEqual([]);
    const body = anthropicServer.bodies.at(-1) as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    const wire = JSON.stringify(body.messages);
    expect(
      body.messages
        .flatMap((m) => m.content)
        .filter((b) => b.type === 'tool_use')
        .map((b) => b.name),
    ).toEqual(['read_log', 'execute']);
    expect(wire).toContain('My answer: staging');
    expect(wire).toContain('I reject — not during business hours');
    const blocks = body.messages.flatMap((m) => m.content);
    const r1 = blocks.find((b) => b.type === 'tool_result' && b.tool_use_id === 'r1');
    expect(JSON.stringify(r1)).toContain('view_tool_call');
    expect(JSON.stringify(r1).length).toBeLessThan(BIG_LOG.length / 2);
    expect(blocks.find((b) => b.type === 'tool_result' && b.tool_use_id === 'x1')).toMatchObject({ is_error: true });
  });

  it('@ai-sdk/openai (Responses): the server rejects the raw interrupted history and accepts the rebuilt one', async () => {
    const openai = createOpenAI({ baseURL: openaiServer.baseURL, apiKey: 'test-key' });
    const model = openai.responses('gpt-5');

    await expect(generateText({ model, tools, messages: interruptedHistory(), maxRetries: 0 })).rejects.toThrow(
      /Tool result is missing for tool call x1/,
    );
    const raw = await generateText({ model, tools, messages: truncatedHistory(), maxRetries: 0 }).catch((e: unknown) => e);
    expect(APICallError.isInstance(raw)).toBe(true);
    expect(openaiServer.violations.at(-1)).toContain('function_call_output old_1 has no earlier function_call');
    expect((await generateText({ model, tools, messages: await rebuildContext(truncatedHistory()), maxRetries: 0 })).text).toBe(
      'history accepted',
    );

    const result = await generateText({ model, tools, messages: await rebuilt(), maxRetries: 0 });
    expect(result.text).toBe('history accepted');
    expect(openaiServer.violations.at(-1)).toEqual([]);
    const input = (openaiServer.bodies.at(-1) as { input: Array<Record<string, unknown>> }).input;
    expect(JSON.stringify(input)).toContain('My answer: staging');
    expect(JSON.stringify(input)).toContain('I reject — not during business hours');
    expect(input.filter((i) => i.type === 'function_call').map((i) => i.name)).toEqual(['read_log', 'execute']);
    const r1 = input.find((i) => i.type === 'function_call_output' && i.call_id === 'r1');
    expect(JSON.stringify(r1)).toContain('view_tool_call');
    expect(JSON.stringify(r1).length).toBeLessThan(BIG_LOG.length / 2);
  });
});
