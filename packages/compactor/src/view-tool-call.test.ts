import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, stepCountIs } from 'ai';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineTool, resolveToolSet, ToolError } from '@aibuddy/registry';
import type { ServerToolConfig } from '@aibuddy/registry';
import { createAiTools } from '@aibuddy/runtime';
import type { RuntimeEvent } from '@aibuddy/runtime';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import { createCompactor } from './compactor.js';
import type { CompactionEvent } from './compactor-types.js';
import { createTokenCounter } from './token-counter.js';
import { toolResultsConfig } from './view-tool-call.js';
import type { ViewPage } from './view-page.js';

const counter = createTokenCounter();
afterAll(() => counter.free());

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'compactor-view-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

// A raw output with everything that breaks naive paging or JSON: CRLF, tabs, emoji across page
// boundaries, a NUL, a lone surrogate, and an "end of text" marker that encoders treat specially.
const RAW = Array.from(
  { length: 1_200 },
  (_, i) => `${i}\tentry ${i} 🚀 <|endoftext|> ${'é'.repeat(i % 7)}${i % 97 === 0 ? '\u0000\ud800' : ''}\r\n`,
).join('');

const dump = defineTool({
  name: 'dump',
  description: 'Dumps a large log.',
  inputSchema: { type: 'object', properties: {} },
  execute: () => RAW,
});
const logs: ServerToolConfig = { key: 'logs', toolNames: ['dump'], create: () => [dump] };

async function readAll(view: (offset: number) => Promise<ViewPage>): Promise<string> {
  let text = '';
  let offset: number | null = 0;
  for (let pages = 0; offset !== null; pages++) {
    if (pages > 1_000) throw new Error('paging does not end');
    const page: ViewPage = await view(offset);
    expect(page.offset).toBe(offset);
    text += page.content;
    offset = page.nextOffset;
  }
  return text;
}

describe('view_tool_call', () => {
  it('end to end: the next model call sees the compacted form with the pointer, and view_tool_call recovers it', async () => {
    const compactions: CompactionEvent[] = [];
    const log: Array<RuntimeEvent | CompactionEvent> = [];
    const compactor = createCompactor({
      dataDir,
      tokenCounter: counter,
      onCompaction: (e) => {
        compactions.push(e);
        log.push(e);
      },
    });
    const resolved = await resolveToolSet({ configs: [logs, toolResultsConfig], services: { compactor } });
    expect(resolved.tools.map((t) => t.definition.name)).toEqual(['dump', 'view_tool_call']);
    const tools = createAiTools(resolved, { taskId: 'task-e2e', hooks: compactor.hooks, onEvent: (e) => log.push(e) });
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'dump', input: {}, id: 'call_dump' }] },
      {
        toolCalls: [{ toolName: 'view_tool_call', input: { toolCallId: 'call_dump', offset: 0, limit: 5_000 }, id: 'call_view' }],
      },
      { text: 'done' },
    ]);
    const result = await generateText({ model, tools, prompt: 'dump the log', stopWhen: stepCountIs(5) });
    expect(result.text).toBe('done');

    // Step 2 saw the compacted view, with the pointer.
    const secondPrompt = model.calls[1]!.prompt;
    const seen = JSON.stringify(secondPrompt);
    expect(seen).toContain('view_tool_call');
    expect(seen).toContain('\\"toolCallId\\":\\"call_dump\\"');
    expect(seen.length).toBeLessThan(RAW.length / 3);
    expect(compactions).toHaveLength(1);
    expect(compactions[0]).toMatchObject({
      toolCallId: 'call_dump',
      strategy: 'trim',
      pointer: join(dataDir, 'compacted_outputs', 'task-e2e', 'call_dump.json'),
    });
    expect(compactions[0]!.originalTokens).toBeGreaterThanOrEqual(2_500);
    // The client got the full result first (`tool-finished`), before compaction finished; the
    // `tool-result` event then says exactly what the model was sent: the compacted form.
    const order = log.filter((e) => e.toolCallId === 'call_dump').map((e) => e.type);
    expect(order).toEqual(['tool-call', 'tool-finished', 'compaction', 'tool-result']);
    expect(log.find((e) => e.type === 'tool-finished' && e.toolCallId === 'call_dump')).toMatchObject({ client: RAW });
    const sent = secondPrompt
      .flatMap((m) => (m.role === 'tool' ? m.content : []))
      .find((p) => p.type === 'tool-result' && p.toolCallId === 'call_dump');
    expect(sent && 'output' in sent ? sent.output : undefined).toEqual(compactions[0]!.model);
    const resultEvent = log.find((e) => e.type === 'tool-result' && e.toolCallId === 'call_dump');
    expect(resultEvent && 'model' in resultEvent ? resultEvent.model : undefined).toEqual(compactions[0]!.model);
    expect(resultEvent).toMatchObject({ client: RAW });

    // Step 3 saw the first page of the raw output, uncompacted (view_tool_call is exempt).
    const page = lastToolResult(model, 'call_view')?.output as { type: string; value: ViewPage };
    expect(page.type).toBe('json');
    expect(page.value.content).toBe(RAW.slice(0, page.value.content.length));
    expect(page.value.content.length).toBeGreaterThan(4_990);
    expect(page.value.nextOffset).toBe(page.value.content.length);
    expect(compactions).toHaveLength(1);
    await compactor.close();
  });

  it('after a restart (a new compactor on the same data dir) recovers the raw output byte for byte', async () => {
    const first = createCompactor({ dataDir, tokenCounter: counter });
    const outcome = await first.compact({
      toolCallId: 'toolu_01Restart/../x',
      toolName: 'dump',
      definition: dump,
      input: { path: '/var/log/huge.log' },
      output: RAW,
      modelOutput: { type: 'text', value: RAW },
      taskId: 'task-restart',
    });
    expect(outcome.kind).toBe('compacted');
    await first.close();

    const second = createCompactor({ dataDir, tokenCounter: counter });
    const resolved = await resolveToolSet({ configs: [toolResultsConfig], services: { compactor: second } });
    const view = resolved.tools[0]!.definition;
    const context = (taskId: string | undefined) => ({
      toolCallId: 'call_v',
      signal: new AbortController().signal,
      taskId,
      services: {},
      emitOutput: () => undefined,
      heartbeat: () => undefined,
    });
    const recovered = await readAll((offset) =>
      view.execute({ toolCallId: 'toolu_01Restart/../x', offset, limit: 777 }, context('task-restart')),
    );
    expect(recovered).toBe(RAW);
    expect(Buffer.from(recovered, 'utf8').equals(Buffer.from(RAW, 'utf8'))).toBe(true);

    const modelView = await readAll((offset) =>
      view.execute({ toolCallId: 'toolu_01Restart/../x', offset, limit: 50_000, part: 'model' }, context('task-restart')),
    );
    expect(modelView).toBe(RAW);
    const input = await view.execute({ toolCallId: 'toolu_01Restart/../x', part: 'input' }, context('task-restart'));
    expect(JSON.parse(input.content)).toEqual({ path: '/var/log/huge.log' });

    // Another task cannot read it; an unknown id is a clear execution error.
    let error: unknown;
    try {
      await view.execute({ toolCallId: 'toolu_01Restart/../x' }, context('another-task'));
    } catch (e) {
      error = e;
    }
    expect(ToolError.isInstance(error)).toBe(true);
    expect((error as ToolError).stage).toBe('execution');
    expect((error as ToolError).message).toMatch(/no saved result/);
    await expect(
      second.view({ taskId: 'task-restart', toolCallId: 'toolu_01Restart/../x', offset: RAW.length + 1 }),
    ).rejects.toThrow(/past the end/);
    await second.close();
  });

  it('never splits a surrogate pair, even with a limit of 1', async () => {
    const compactor = createCompactor({ dataDir, tokenCounter: counter });
    const raw = `${'🚀'.repeat(2_000)}${'x'.repeat(20_000)}`;
    await compactor.compact({
      toolCallId: 'emoji',
      toolName: 'dump',
      definition: dump,
      input: {},
      output: raw,
      modelOutput: { type: 'text', value: raw },
      taskId: undefined,
    });
    const page = await compactor.view({ taskId: undefined, toolCallId: 'emoji', limit: 1 });
    expect(page.content).toBe('🚀');
    const odd = await compactor.view({ taskId: undefined, toolCallId: 'emoji', offset: 0, limit: 3 });
    expect(odd.content).toBe('🚀');
    expect(odd.nextOffset).toBe(2);
    await compactor.close();
  });

  it('is offered only when the host injects the compactor', async () => {
    const resolved = await resolveToolSet({ configs: [toolResultsConfig] });
    expect(resolved.tools).toEqual([]);
    expect(resolved.excluded[0]?.key).toBe('tool_results');
  });
});
