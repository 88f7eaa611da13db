// Hostile MCP input (issue 13): each case failed on the main before this change.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateText, stepCountIs } from 'ai';
import { resolveToolSet } from '@aibuddy/registry';
import { createAiTools } from '@aibuddy/runtime';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConfigError } from '../errors.js';
import { closeAll, connect } from '../__fixtures__/mcp-helpers.js';
import { loadMcpConfig, parseMcpConfig } from './config.js';
import { MAX_MCP_TOOLS_PER_SERVER } from './list-all-tools.js';
import { MAX_MCP_TOOL_DESCRIPTION } from './read-tool-list.js';

afterEach(closeAll);

const HOSTILE = fileURLToPath(new URL('../__fixtures__/hostile-server.mjs', import.meta.url));
// Half of a surrogate pair (String.prototype.isWellFormed is ES2024, past this tsconfig's lib).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const hostile = (...flags: string[]) => ({ command: process.execPath, args: [HOSTILE, ...flags] });

describe('MCP input hardened', () => {
  it('a tool nesting 1,000 levels is left out with a reason; its server and the others keep working', async () => {
    const m = await connect({ bad: hostile('--deep=1000'), good: hostile('--tools=ping') });
    expect(m.servers().map((s) => s.status)).toEqual(['ready', 'ready']);
    expect(
      m
        .tools()
        .map((t) => t.name)
        .sort(),
    ).toEqual(['bad__after', 'bad__before', 'good__ping']);
    expect(m.excludedTools()).toEqual([
      { name: 'bad__deep', tool: 'deep', server: 'bad', reason: expect.stringMatching(/nests deeper than 64 levels/) },
    ]);
    expect(m.events.some((e) => e.type === 'warning' && /"deep" is left out/.test(e.message))).toBe(true);
    // Nothing downstream throws RangeError: the gate, the configs, resolveToolSet, a call.
    expect(m.decision().direct).toHaveLength(3);
    const set = await resolveToolSet({ configs: m.toolConfigs() });
    expect(set.tools.map((t) => t.definition.name).sort()).toEqual(['bad__after', 'bad__before', 'good__ping']);
    expect(await m.callTool('bad__after', { text: 'hi' })).toMatchObject({ content: [{ text: 'after ran with {"text":"hi"}' }] });
  });

  it('an input schema that costs exponential time on a small input is stopped at its deadline; the host goes on', async () => {
    const m = await connect({ s: hostile('--exponential', '--tools=ping') });
    const set = await resolveToolSet({ configs: m.toolConfigs() });
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 21; i++) deep = { a: deep }; // ~20 s to check in the calling thread; 2^30 would never end
    const model = scriptedModel([
      { toolCalls: [{ toolName: 's__nest', input: deep, id: 'nest' }] },
      { toolCalls: [{ toolName: 's__ping', input: { text: 'hi' }, id: 'ping' }] },
      { text: 'done' },
    ]);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const started = Date.now();
    try {
      await generateText({ model, tools: createAiTools(set), prompt: 'go', stopWhen: stepCountIs(4) });
    } finally {
      clearInterval(ticker);
    }
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(ticks).toBeGreaterThanOrEqual(10); // the event loop kept turning during the check
    expect(lastToolResult(model, 'nest')?.output).toEqual({
      type: 'error-text',
      value: expect.stringMatching(/^\[parameters\] s__nest: invalid input: \(input\): could not be checked within 2 s/),
    });
    expect(lastToolResult(model, 'ping')?.output).toEqual({ type: 'text', value: 'ping ran with {"text":"hi"}' });
  });

  it('$ref: "#" and required are enforced by a real validator, at the parameters stage, without RangeError', async () => {
    const m = await connect({ s: hostile('--ref-root') });
    const definitions = new Map(m.definitions().map((d) => [d.name, d]));
    const tree = definitions.get('s__tree')!;
    expect((await tree.validate({ name: 'root', children: [{ name: 'a', children: [{ name: 'b' }] }] })).success).toBe(true);
    const bad = await tree.validate({ name: 'root', children: [{ children: [] }] });
    expect(bad).toEqual({ success: false, issues: [{ path: 'children.0.name', message: 'is required' }] });
    const strict = definitions.get('s__strict')!;
    expect(await strict.validate({ text: 'x' })).toEqual({ success: false, issues: [{ path: 'token', message: 'is required' }] });
    expect((await strict.validate({ text: 'x', token: 't' })).success).toBe(true);
    // The model still sees the server's schema as written.
    expect(tree.inputJsonSchema).toMatchObject({ properties: { children: { items: { $ref: '#' } } } });
  });

  it('a server listing 10,500 tools keeps the first 10,000, with one warning', async () => {
    const m = await connect({ many: hostile('--many=10500') });
    expect(m.tools()).toHaveLength(MAX_MCP_TOOLS_PER_SERVER);
    expect(m.tools().at(-1)?.originalName).toBe(`t${MAX_MCP_TOOLS_PER_SERVER - 1}`);
    const warnings = m.events.filter((e) => e.type === 'warning' && /more than 10000 tools/.test(e.message));
    expect(warnings).toHaveLength(1);
  });

  it('a tool list of 12 pages of 6 MiB stops at 64 MiB: the first 10 pages are kept, with one warning', async () => {
    const m = await connect({ fat: hostile('--fat=12') });
    expect(m.tools().map((t) => t.originalName)).toEqual(Array.from({ length: 10 }, (_, i) => `f${i}`));
    const warnings = m.events.filter((e) => e.type === 'warning' && /passes 67108864 characters/.test(e.message));
    expect(warnings).toHaveLength(1);
  });

  it('colliding namespaced names are made unique, deterministically, instead of refusing to start', async () => {
    const m = await connect({ a: hostile('--tools=b__c,plain'), a__b: hostile('--tools=c') });
    const names = m.tools().map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain('a__b__c');
    const clashed = m.tools().filter((t) => t.name.startsWith('a__b__c_'));
    expect(clashed.map((t) => [t.server, t.originalName]).sort()).toEqual([
      ['a', 'b__c'],
      ['a__b', 'c'],
    ]);
    expect(names).toContain('a__plain');
    // Each name reaches its own server.
    for (const t of clashed)
      expect(await m.callTool(t.name, {})).toMatchObject({ content: [{ text: `${t.originalName} ran with {}` }] });
    // The same names whatever the config order.
    await closeAll();
    const again = await connect({ a__b: hostile('--tools=c'), a: hostile('--tools=b__c,plain') });
    expect(
      again
        .tools()
        .map((t) => t.name)
        .sort(),
    ).toEqual([...names].sort());
    expect(new Set(Object.keys(again.nameMap())).size).toBe(3);
  });

  it('server names "__proto__" and "constructor" are servers like any other', async () => {
    const config = parseMcpConfig(JSON.parse('{"mcpServers":{"__proto__":{"command":"x"},"constructor":{"command":"y"}}}'));
    expect(Object.keys(config.servers)).toEqual(['__proto__', 'constructor']);
    const m = await connect(
      JSON.parse(
        `{"__proto__":${JSON.stringify(hostile('--tools=one'))},"constructor":${JSON.stringify(hostile('--tools=two'))}}`,
      ),
    );
    expect(
      m
        .tools()
        .map((t) => t.name)
        .sort(),
    ).toEqual(['__proto____one', 'constructor__two']);
    expect(m.toolConfigs().map((c) => c.key)).toEqual(['mcp:__proto__', 'mcp:constructor']);
  });

  it('a 1,000,000-character description and server notes are cut for the model, whole characters, with one warning', async () => {
    const m = await connect({ long: hostile('--long=1000000', '--notes=100000', '--tools=ping') });
    const long = m.tools().find((t) => t.name === 'long__long');
    expect(long?.description.length).toBeLessThanOrEqual(MAX_MCP_TOOL_DESCRIPTION);
    expect(long?.description.length).toBeGreaterThan(MAX_MCP_TOOL_DESCRIPTION - 10);
    expect(long?.description.endsWith('…')).toBe(true);
    // No half of a surrogate pair at the cut: providers reject such JSON.
    expect(LONE_SURROGATE.test(long?.description ?? '')).toBe(false);
    expect(m.tools().find((t) => t.name === 'long__ping')?.description).toBe('The ping tool.');
    const warnings = m.events.filter((e) => e.type === 'warning' && /cut to/.test(e.message));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ message: expect.stringMatching(/"long" \(1000000 characters\)/) });
    // What the model is given: the tool definition and the run notes.
    const set = await resolveToolSet({ configs: m.toolConfigs() });
    const definition = set.tools.find((t) => t.definition.name === 'long__long')?.definition;
    expect(definition?.description).toBe(long?.description);
    const notes = set.instructions.find((i) => i.key === 'mcp:long')?.text ?? '';
    expect(notes.length).toBeLessThan(2_200);
    expect(LONE_SURROGATE.test(notes)).toBe(false);
  });

  it('a tools/list reply over the stdio message limit is reported as such, not as "Connection closed"', async () => {
    const m = await connect({ huge: hostile('--huge=11000000'), good: hostile('--tools=ping') });
    const failure = m.failures().find((f) => f.server === 'huge');
    expect(failure?.error.stage).toBe('discovery');
    expect(failure?.error.message).toMatch(/exceeded 10485760 bytes/);
    expect(failure?.error.message).not.toMatch(/Connection closed/);
    expect(m.tools().map((t) => t.name)).toEqual(['good__ping']);
  });
});

describe('--mcp-config must be a regular file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-config-kind-'));
  const refused = async (path: string) => {
    const error = await loadMcpConfig(path).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(McpConfigError.isInstance(error)).toBe(true);
    expect((error as McpConfigError).stage).toBe('discovery');
    return (error as Error).message;
  };

  it('refuses a FIFO at once instead of hanging', async () => {
    const fifo = join(dir, 'config.fifo');
    execFileSync('mkfifo', [fifo]);
    expect(await refused(fifo)).toMatch(/named pipe \(FIFO\), not a regular file/);
  });

  it('refuses a folder and a device', async () => {
    expect(await refused(dir)).toMatch(/a folder, not a regular file/);
    expect(await refused('/dev/zero')).toMatch(/device or other special file, not a regular file/);
  });

  it('still reads a regular file', async () => {
    writeFileSync(join(dir, 'ok.json'), '{"mcpServers":{"a":{"command":"node"}}}');
    expect((await loadMcpConfig(join(dir, 'ok.json'))).servers.a).toMatchObject({ command: 'node' });
  });
});
