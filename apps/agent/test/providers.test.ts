// The real `@ai-sdk/anthropic` and `@ai-sdk/openai` providers, driven by the built CLI against loopback
// wire servers (the ones of `@aibuddy/defer`'s tests), end to end: streaming, tool calls executed
// in the workspace, deferred MCP tools sent with defer_loading, tool_search, results sent back.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAnthropicWireServer } from '../../../packages/defer/src/testing/anthropic-wire-server.js';
import { functionCallItem, messageItem, startOpenAIWireServer } from '../../../packages/defer/src/testing/openai-wire-server.js';
import { DEMO_MCP_SERVER_PATH } from '../src/demo.js';
import { cleanEnv, readEvents, startCli, tempDir, workspaceIn } from './helpers.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function setUp() {
  const dir = tempDir();
  const mcp = join(dir, 'mcp.json');
  writeFileSync(mcp, JSON.stringify({ mcpServers: { toolbox: { command: process.execPath, args: [DEMO_MCP_SERVER_PATH] } } }));
  return { dir, workspace: workspaceIn(dir), mcp, events: join(dir, 'events.jsonl') };
}

/** `aibuddy run TASK` against a provider stand-in, with the demo MCP server and an event log. */
function runArgs(
  task: string,
  model: string,
  baseURL: string,
  s: ReturnType<typeof setUp>,
  extra: { deferPath?: string; events?: string } = {},
): string[] {
  return [
    'run',
    task,
    '--model',
    model,
    '--base-url',
    baseURL,
    ...(extra.deferPath ? ['--defer-path', extra.deferPath] : []),
    '--mcp-config',
    s.mcp,
    '--workspace',
    s.workspace,
    '--events',
    extra.events ?? s.events,
  ];
}

const deferredOnWire = (tools: any[]): string[] =>
  tools
    .flatMap((t) => (t.type === 'namespace' ? t.tools : [t]))
    .filter((t: any) => t.defer_loading === true)
    .map((t: any) => t.name)
    .sort();

describe('real providers through loopback wire servers', { timeout: 120_000 }, () => {
  it('anthropic: native deferral, tool_search, a deferred MCP tool and a file write, streamed', async () => {
    const s = setUp();
    const server = await startAnthropicWireServer((_body, index) => {
      if (index === 0)
        return {
          content: [
            { type: 'text', text: 'Searching. ' },
            { type: 'tool_use', id: 'toolu_search', name: 'tool_search', input: { query: 'weather forecast' } },
          ],
        };
      if (index === 1)
        return {
          content: [{ type: 'tool_use', id: 'toolu_forecast', name: 'toolbox__get_forecast', input: { city: 'Lima', days: 2 } }],
        };
      if (index === 2)
        return {
          content: [
            { type: 'tool_use', id: 'toolu_write', name: 'write_file', input: { path: 'forecast.txt', content: 'Lima: mild\n' } },
          ],
        };
      return { content: [{ type: 'text', text: 'All done.' }] };
    });
    closers.push(() => server.close());
    const run = startCli(
      runArgs('forecast for Lima', 'anthropic:claude-sonnet-4-5', server.baseURL, s, { deferPath: 'native' }),
      { env: cleanEnv({ ANTHROPIC_API_KEY: 'test-key' }), timeoutMs: 90_000 },
    );
    const r = await run.result;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('All done.');
    expect(readFileSync(join(s.workspace, 'forecast.txt'), 'utf8')).toBe('Lima: mild\n');

    const bodies = server.bodies();
    expect(bodies).toHaveLength(4);
    expect(bodies.every((b) => b.stream === true && b.model === 'claude-sonnet-4-5')).toBe(true);
    const toolbox = bodies[0].tools
      .filter((t: any) => String(t.name).startsWith('toolbox__'))
      .map((t: any) => t.name)
      .sort();
    expect(toolbox).toHaveLength(12);
    expect(deferredOnWire(bodies[0].tools)).toEqual(toolbox);
    expect(bodies[0].tools.find((t: any) => t.name === 'tool_search')).toBeDefined();
    // Native path: the search answers with tool_reference blocks only, so the toolbox's usage notes
    // stay in the system prompt.
    expect(JSON.stringify(bodies[0].system)).toContain('Toolbox notes: temperatures are in °C');
    expect(JSON.stringify(bodies[1].messages)).not.toContain('Toolbox notes');
    // The tool array never changes from step to step (prompt caching holds).
    for (const b of bodies) expect(b.tools).toEqual(bodies[0].tools);
    // The forecast result went back to the model.
    expect(JSON.stringify(bodies[2].messages)).toMatch(/day 1: \d+ °C/);

    const log = readEvents(s.events);
    expect(log.filter((e) => e.type === 'model-request')).toHaveLength(4);
    expect(log.find((e) => e.type === 'tool-result' && e.toolCallId === 'toolu_forecast')?.error).toBeUndefined();
    // Every call is logged once: the search tool (as presented on this path) too.
    for (const id of ['toolu_search', 'toolu_forecast', 'toolu_write']) {
      expect(
        log.filter((e) => e.type === 'tool-call' && e.toolCallId === id),
        id,
      ).toHaveLength(1);
      expect(
        log.filter((e) => e.type === 'tool-result' && e.toolCallId === id),
        id,
      ).toHaveLength(1);
    }
    const search = log.find((e) => e.type === 'tool-result' && e.toolCallId === 'toolu_search')!;
    // On this path the search answers with tool_reference blocks: the logged view is that presentation,
    // and the wire carries the matching tool_reference for the found tool.
    expect(JSON.stringify(search.model)).toContain('toolbox__get_forecast');
    expect(JSON.stringify(search.model)).toMatch(/tool[-_]reference/);
    expect(JSON.stringify(bodies[1].messages)).toMatch(/"tool_reference","tool_name":"toolbox__get_forecast"/);
  });

  it('openai (Responses API): native deferral on the wire and a file write end to end', async () => {
    const s = setUp();
    const server = await startOpenAIWireServer({
      responses: (_body, index) =>
        index === 0
          ? {
              output: [
                functionCallItem('fc_1', 'call_write', 'write_file', { path: 'hello.txt', content: 'hello from openai\n' }),
              ],
            }
          : { output: [messageItem('msg_1', 'Wrote hello.txt.')] },
    });
    closers.push(() => server.close());
    const r = await startCli(runArgs('say hello', 'openai:gpt-5.4', server.baseURL, s, { deferPath: 'native' }), {
      env: cleanEnv({ OPENAI_API_KEY: 'test-key' }),
      timeoutMs: 90_000,
    }).result;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Wrote hello.txt.');
    expect(readFileSync(join(s.workspace, 'hello.txt'), 'utf8')).toBe('hello from openai\n');
    const bodies = server.responsesBodies();
    expect(bodies).toHaveLength(2);
    expect(bodies[0].stream).toBe(true);
    expect(bodies[0].tools).toContainEqual({ type: 'tool_search' });
    expect(deferredOnWire(bodies[0].tools)).toHaveLength(12);
    expect(JSON.stringify(bodies[1].input)).toContain('call_write');
    const log = readEvents(s.events);
    expect(log.find((e) => e.type === 'tool-result' && e.toolCallId === 'call_write')).toMatchObject({ toolName: 'write_file' });
  });

  it('openai-compatible: chat completions at --base-url take the activeTools path and run a tool end to end', async () => {
    const s = setUp();
    const server = await startOpenAIWireServer({
      chat: [
        { toolCalls: [{ id: 'call_search', name: 'tool_search', arguments: { query: 'weather forecast' } }] },
        { toolCalls: [{ id: 'call_ls', name: 'write_file', arguments: { path: 'compat.txt', content: 'ok\n' } }] },
        { text: 'Wrote compat.txt.' },
      ],
    });
    closers.push(() => server.close());
    const events = join(s.dir, 'compat.jsonl');
    const r = await startCli(runArgs('write', 'openai-compatible:llama-3', server.baseURL, s, { events }), {
      env: cleanEnv({ OPENAI_COMPATIBLE_API_KEY: 'test-key' }),
      timeoutMs: 90_000,
    }).result;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Wrote compat.txt.');
    expect(readFileSync(join(s.workspace, 'compat.txt'), 'utf8')).toBe('ok\n');
    const bodies = server.chatBodies();
    expect(bodies).toHaveLength(3);
    const offered = bodies[0].tools.map((t: any) => t.function.name);
    expect(offered).toContain('tool_search');
    expect(offered.some((n: string) => n.startsWith('toolbox__'))).toBe(false); // deferred: activeTools path
    expect(bodies[1].tools.map((t: any) => t.function.name)).toContain('toolbox__get_forecast');
    // The deferred toolbox's usage notes come with its tools in the search result, never in the
    // system prompt of a step.
    const systemOf = (b: any) => JSON.stringify(b.messages.filter((m: any) => m.role === 'system'));
    for (const b of bodies) expect(systemOf(b)).not.toContain('Toolbox notes');
    expect(systemOf(bodies[0])).toMatch(/usage notes of their servers come with them/);
    const searchResult = bodies[1].messages.find((m: any) => m.role === 'tool' && m.tool_call_id === 'call_search');
    expect(JSON.stringify(searchResult?.content)).toContain('Toolbox notes: temperatures are in °C');
    expect(readEvents(events).find((e) => e.type === 'run-start')).toMatchObject({ deferPath: 'active-tools' });
  });
  it('openai-compatible: a server that gives every call the same id: every call runs and goes back under an id of its own', async () => {
    // Some local servers give all calls one id, in a step and across steps (xinference: "call_<uuid>"
    // per response). Keyed by that id, the calls would share a decision, a result and a stored output.
    const s = setUp();
    const server = await startOpenAIWireServer({
      chat: [
        {
          toolCalls: [
            { id: 'call_0', name: 'write_file', arguments: { path: 'a.txt', content: 'AAA\n' } },
            { id: 'call_0', name: 'write_file', arguments: { path: 'b.txt', content: 'BBB\n' } },
          ],
        },
        { toolCalls: [{ id: 'call_0', name: 'read_file', arguments: { path: 'b.txt' } }] },
        { text: 'Both written.' },
      ],
    });
    closers.push(() => server.close());
    const events = join(s.dir, 'same-id.jsonl');
    const r = await startCli(runArgs('write two files', 'openai-compatible:local', server.baseURL, s, { events }), {
      env: cleanEnv({ OPENAI_COMPATIBLE_API_KEY: 'test-key' }),
      timeoutMs: 90_000,
    }).result;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(s.workspace, 'a.txt'), 'utf8')).toBe('AAA\n');
    expect(readFileSync(join(s.workspace, 'b.txt'), 'utf8')).toBe('BBB\n');
    const bodies = server.chatBodies();
    expect(bodies).toHaveLength(3);
    const last = bodies[2].messages as any[];
    const callIds = last.filter((m) => m.role === 'assistant').flatMap((m) => (m.tool_calls ?? []).map((c: any) => c.id));
    const answered = last.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
    expect(callIds).toHaveLength(3);
    expect(new Set(callIds).size).toBe(3);
    expect(answered).toEqual(callIds);
    // The read's own result, not a write's.
    expect(JSON.stringify(last.at(-1).content)).toContain('BBB');
    expect(readEvents(events).filter((e) => e.type === 'tool-result' && e.error)).toEqual([]);
  });
});
