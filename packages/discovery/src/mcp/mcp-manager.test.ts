import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ToolError } from '@aibuddy/registry';
import { afterEach, describe, expect, it } from 'vitest';
import { createActiveSet } from '../active-set/active-set.js';
import { McpServerStartError } from '../errors.js';
import { closeAll, connect, fixture, HTTP_SERVER_MODULE, waitFor } from '../__fixtures__/mcp-helpers.js';
import { MCP_HTTP_MAX_MESSAGE_BYTES } from './limited-fetch.js';

afterEach(closeAll);

function text(result: { content?: Array<{ type: string; [k: string]: unknown }> }): string {
  return (result.content ?? []).map((c) => String(c.text ?? '')).join('\n');
}

describe('the gate over real stdio servers', () => {
  it('3 + 3 + 3 tools: every tool is direct', async () => {
    const m = await connect({ a: fixture('--tools=3'), b: fixture('--tools=3'), c: fixture('--tools=3') });
    const d = m.decision();
    expect(d.totalTools).toBe(9);
    expect(d.direct).toHaveLength(9);
    expect(d.deferred).toEqual([]);
    expect(d.direct).toContain('a__get_weather');
    expect(m.deferredTools()).toEqual([]);
  });

  it('11 tools on one server: only that server is deferred', async () => {
    const m = await connect({ big: fixture('--tools=11', '--instructions=Prefer_get_forecast'), small: fixture('--tools=3') });
    const [bigConfig] = m.toolConfigs();
    expect(bigConfig?.instructions?.({ services: {}, task: {} })).toBe(
      'MCP server "big" (tools named big__*): Prefer_get_forecast',
    );
    const d = m.decision();
    expect(d.servers.map((s) => [s.server, s.deferred])).toEqual([
      ['big', true],
      ['small', false],
    ]);
    expect(d.deferred).toHaveLength(11);
    expect(d.deferred.every((t) => t.server === 'big')).toBe(true);
    expect(d.deferred[0]?.reason).toMatch(/11 tools, more than 10/);
    expect(d.direct).toEqual(['small__get_weather', 'small__get_forecast', 'small__create_issue']);
    expect(m.deferredTools().map((t) => t.name)).toContain('big__convert_currency');
  });

  it('10 + 10 + 11 = 31 tools: every MCP tool is deferred', async () => {
    const m = await connect({ a: fixture('--tools=10'), b: fixture('--tools=10'), c: fixture('--tools=11') });
    const d = m.decision();
    expect(d.totalTools).toBe(31);
    expect(d.allDeferred).toBe(true);
    expect(d.direct).toEqual([]);
    expect(d.deferred).toHaveLength(31);
    expect(d.servers.every((s) => /31 MCP tools in total, more than 30/.test(s.reason))).toBe(true);
    expect(m.deferredTools()).toHaveLength(31);
  });

  it('alwaysLoad keeps a server direct even over the per-server threshold', async () => {
    const m = await connect({ pinned: { ...fixture('--tools=12'), alwaysLoad: true } });
    expect(m.decision().direct).toHaveLength(12);
    expect(m.decision().servers[0]?.reason).toMatch(/alwaysLoad/);
  });

  it('pages through tools/list and applies allow / deny lists before counting', async () => {
    const m = await connect({
      paged: fixture('--tools=40', '--page-size=7'),
      picky: { ...fixture('--tools=12'), allowTools: ['get_weather', 'send_email', 'nope'], denyTools: ['send_email'] },
    });
    expect(m.tools().filter((t) => t.server === 'paged')).toHaveLength(40);
    expect(
      m
        .tools()
        .filter((t) => t.server === 'picky')
        .map((t) => t.originalName),
    ).toEqual(['get_weather']);
    expect(m.events.some((e) => e.type === 'warning' && /allowTools names "nope"/.test(e.message))).toBe(true);
    // 40 on one server (deferred) + 1; total 41 > 30 → all deferred.
    expect(m.decision().allDeferred).toBe(true);
  });
});

describe('calls, results and failures', () => {
  it('calls under the original name and maps isError to an execution ToolError', async () => {
    const m = await connect({ s: fixture('--tools=2', '--special') });
    const ok = await m.callTool('s__get_weather', { city: 'Oslo' });
    expect(text(ok)).toBe('get_weather ok {"city":"Oslo"}');
    const definition = m.definitions().find((d) => d.name === 's__fail_tool')!;
    const error = await Promise.resolve(definition.execute({}, { signal: new AbortController().signal } as never)).catch(
      (e: unknown) => e,
    );
    expect(ToolError.isInstance(error)).toBe(true);
    expect((error as ToolError).stage).toBe('execution');
    expect((error as ToolError).message).toContain('the upstream API said no');
  });

  it('honours an abort signal and a call timeout, and the server stays usable', async () => {
    const m = await connect({ s: fixture('--tools=1', '--special') }, { callTimeoutMs: 1_500 });
    const controller = new AbortController();
    const aborted = m.callTool('s__slow_tool', { ms: 20_000 }, { signal: controller.signal }).catch((e: unknown) => e);
    setTimeout(() => controller.abort(new Error('user stop')), 100);
    expect(String(await aborted)).toMatch(/user stop/);
    const late = await m.callTool('s__slow_tool', { ms: 20_000 }).catch((e: unknown) => e);
    expect((late as ToolError).stage).toBe('execution');
    expect((late as ToolError).message).toMatch(/did not answer within 1500 ms/);
    expect(text(await m.callTool('s__get_weather', {}))).toMatch(/^get_weather ok/);
  });

  it('a server that hangs at start-up times out (stage discovery, stderr tail) and the others go on', async () => {
    const m = await connect({
      slow: { ...fixture('--hang'), startupTimeoutMs: 4_000 },
      dead: fixture('--exit-early'),
      fine: fixture('--tools=2'),
      missing: { command: 'definitely-not-a-command-xyz' },
    });
    const failures = Object.fromEntries(m.failures().map((f) => [f.server, f.error]));
    expect(Object.keys(failures).sort()).toEqual(['dead', 'missing', 'slow']);
    const slow = failures.slow!;
    expect(McpServerStartError.isInstance(slow)).toBe(true);
    expect(slow.stage).toBe('discovery');
    expect((slow as McpServerStartError).timedOut).toBe(true);
    expect(slow.message).toMatch(/no answer within 4000 ms/);
    expect(slow.message).toContain('loading a huge model');
    expect(failures.dead!.message).toContain('API_TOKEN is not set');
    expect(failures.missing!.message).toMatch(/not found|ENOENT/);
    expect(m.tools().map((t) => t.name)).toEqual(['fine__get_weather', 'fine__get_forecast']);
    expect(text(await m.callTool('fine__get_weather', {}))).toMatch(/^get_weather ok/);
    // Failed servers yield nothing, with the reason, when resolved as configs.
    const config = m.toolConfigs().find((c) => c.key === 'mcp:slow')!;
    expect(config.requires?.preconditions?.[0]?.check({})).toMatch(/failed to start/);
  });

  it('a server that dies mid-call: execution error with stderr, its tools leave the active set, it reconnects', async () => {
    const m = await connect({ flaky: fixture('--tools=2', '--special'), other: fixture('--tools=2') });
    const active = createActiveSet({ core: ['read_file'], direct: m.decision().direct, isAvailable: m.isAvailable });
    expect(active.names()).toContain('flaky__get_weather');

    const error = await m.callTool('flaky__crash_tool', {}).catch((e: unknown) => e);
    expect(ToolError.isInstance(error)).toBe(true);
    expect((error as ToolError).stage).toBe('execution');
    expect((error as ToolError).message).toMatch(/disconnected during the call/);
    expect((error as ToolError).sideEffectsPossible).toBe(true);
    expect(active.names()).not.toContain('flaky__get_weather');
    expect(active.names()).toContain('other__get_weather');
    expect(m.events.some((e) => e.type === 'server-disconnected' && e.server === 'flaky')).toBe(true);
    expect(m.events.some((e) => e.type === 'server-reconnect-scheduled' && e.server === 'flaky')).toBe(true);

    await waitFor(() => m.isAvailable('flaky__get_weather'), 20_000, 'reconnect');
    expect(active.names()).toContain('flaky__get_weather');
    expect(m.events.some((e) => e.type === 'server-ready' && e.server === 'flaky' && e.reconnected)).toBe(true);
    expect(text(await m.callTool('flaky__get_weather', { city: 'Rome' }))).toContain('Rome');
  });

  it('a call while the server is reconnecting fails at the discovery stage', async () => {
    const m = await connect(
      { flaky: fixture('--tools=1', '--special') },
      { reconnect: { initialDelayMs: 5_000, maxAttempts: 1 } },
    );
    await m.callTool('flaky__crash_tool', {}).catch(() => undefined);
    const error = await m.callTool('flaky__get_weather', {}).catch((e: unknown) => e);
    expect((error as ToolError).stage).toBe('discovery');
    expect((error as ToolError).message).toMatch(/not connected \(reconnecting\)/);
  });

  it('with reconnect off, a crashed server is failed for good and its tools are gone', async () => {
    const m = await connect({ once: fixture('--tools=1', '--special') }, { reconnect: false });
    await m.callTool('once__crash_tool', {}).catch(() => undefined);
    expect(m.servers()[0]?.status).toBe('failed');
    expect(m.failures()[0]?.error.message).toMatch(/disconnected/);
    expect(m.isAvailable('once__get_weather')).toBe(false);
    expect(m.definitions()).toEqual([]);
    expect(m.events.some((e) => e.type === 'server-reconnect-scheduled')).toBe(false);
  });

  it('notifications/tools/list_changed updates the catalog', async () => {
    const m = await connect({ dyn: fixture('--tools=2', '--special') });
    const before = m.version;
    expect(m.isAvailable('dyn__brand_new')).toBe(false);
    await m.callTool('dyn__add_tool', { name: 'brand_new' });
    await waitFor(() => m.tools().some((t) => t.name === 'dyn__brand_new'), 20_000, 'list_changed');
    expect(m.version).toBeGreaterThan(before);
    expect(m.events.some((e) => e.type === 'tools-changed' && e.server === 'dyn' && e.toolCount === 7)).toBe(true);
    expect(m.definitions().map((d) => d.name)).toContain('dyn__brand_new');
    expect(text(await m.callTool('dyn__brand_new', {}))).toMatch(/^brand_new ok/);
  });

  it('a burst of 300 list_changed notifications re-lists the tools at most twice, not 300 times', async () => {
    const m = await connect({ dyn: fixture('--tools=2', '--flood') });
    const listsBefore = Number(text(await m.callTool('dyn__list_count', {})));
    const versionBefore = m.version;
    await m.callTool('dyn__flood', { count: 300 });
    await waitFor(() => m.version > versionBefore, 20_000, 'a re-list');
    // Let every notification arrive and any trailing re-list finish.
    await new Promise((r) => setTimeout(r, 500));
    const lists = Number(text(await m.callTool('dyn__list_count', {}))) - listsBefore;
    expect(lists).toBeGreaterThanOrEqual(1);
    expect(lists).toBeLessThanOrEqual(2);
    expect(m.events.filter((e) => e.type === 'tools-changed' && e.server === 'dyn').length).toBeLessThanOrEqual(2);
  });

  it('a tool whose schema is not a top-level object still works with a permissive schema', async () => {
    const m = await connect({ odd: fixture('--tools=1', '--bad-schema') });
    const info = m.tools().find((t) => t.originalName === 'odd_schema')!;
    expect(info.schemaFallback).toBe(true);
    expect(info.inputSchema).toMatchObject({ type: 'object' });
    expect(text(await m.callTool('odd__odd_schema', { anything: 1 }))).toContain('odd_schema ok');
  });
});

describe('@modelcontextprotocol/server-everything over stdio', () => {
  it('lists its tools and runs echo', async () => {
    const require = createRequire(import.meta.url);
    const pkg = require.resolve('@modelcontextprotocol/server-everything/package.json');
    const bin = join(dirname(pkg), 'dist', 'index.js');
    const m = await connect({ everything: { command: process.execPath, args: [bin, 'stdio'] } });
    expect(m.failures()).toEqual([]);
    const names = m.tools().map((t) => t.name);
    expect(names).toContain('everything__echo');
    expect(names.every((n) => /^[a-zA-Z0-9_-]{1,64}$/.test(n))).toBe(true);
    const result = await m.callTool('everything__echo', { message: 'hello mcp' });
    expect(text(result)).toContain('hello mcp');
    // Its McpServer reports rejected arguments as an isError result with code -32602: stage parameters.
    const echo = m.definitions().find((d) => d.name === 'everything__echo')!;
    const bad = await Promise.resolve(echo.execute({ message: 42 }, { signal: new AbortController().signal } as never)).catch(
      (e: unknown) => e,
    );
    expect((bad as ToolError).stage).toBe('parameters');
    expect((bad as ToolError).message).toMatch(/expected string/);
    // An image result reaches the model as image data.
    const image = m.definitions().find((d) => d.name === 'everything__get-tiny-image')!;
    const output = await image.execute({}, { signal: new AbortController().signal } as never);
    const view = image.toModelOutput!({ toolName: image.name, toolCallId: 'x', input: {}, output });
    expect(view).toMatchObject({
      type: 'content',
      value: expect.arrayContaining([expect.objectContaining({ type: 'image-data', mediaType: 'image/png' })]),
    });
    // 13 tools: more than 10, so the gate defers this server.
    expect(m.decision().servers[0]).toMatchObject({ server: 'everything', deferred: true });
  });
});

describe('Streamable HTTP on 127.0.0.1', () => {
  it('connects, calls, survives the server going away and reconnects when it is back', async () => {
    const { startHttpMcpServer } = (await import(HTTP_SERVER_MODULE)) as {
      startHttpMcpServer(o: { tools?: number; port?: number }): Promise<{ url: string; port: number; close(): Promise<void> }>;
    };
    let server = await startHttpMcpServer({ tools: 3 });
    try {
      const m = await connect({ remote: { url: server.url } });
      expect(m.servers()[0]).toMatchObject({ name: 'remote', transport: 'http', status: 'ready', toolCount: 3 });
      expect(text(await m.callTool('remote__get_weather', { city: 'Lima' }))).toBe('get_weather via http {"city":"Lima"}');

      await server.close();
      const error = await m.callTool('remote__get_weather', {}).catch((e: unknown) => e);
      expect((error as ToolError).stage).toBe('execution');
      expect(m.isAvailable('remote__get_weather')).toBe(false);

      server = await startHttpMcpServer({ tools: 3, port: server.port });
      await waitFor(() => m.isAvailable('remote__get_weather'), 20_000, 'http reconnect');
      expect(text(await m.callTool('remote__create_issue', { repo: 'x' }))).toContain('create_issue via http');
    } finally {
      await server.close();
    }
  });

  it('an answer over the message limit is a discovery failure that says so, and the host does not read it whole', async () => {
    const { startHttpMcpServer } = (await import(HTTP_SERVER_MODULE)) as {
      startHttpMcpServer(o: { tools?: number; hugeBytes?: number }): Promise<{ url: string; close(): Promise<void> }>;
    };
    const server = await startHttpMcpServer({ tools: 1, hugeBytes: MCP_HTTP_MAX_MESSAGE_BYTES + 1024 });
    try {
      const m = await connect({ big: { url: server.url }, local: fixture('--tools=1') });
      expect(m.failures().map((f) => [f.server, f.error.stage])).toEqual([['big', 'discovery']]);
      expect(m.failures()[0]!.error.message).toMatch(/exceeded 10485760 bytes/);
      expect(m.tools()).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('an unreachable URL is a discovery failure and does not stop the others', async () => {
    const m = await connect({ nowhere: { url: 'http://127.0.0.1:1/mcp', startupTimeoutMs: 3_000 }, local: fixture('--tools=1') });
    expect(m.failures().map((f) => [f.server, f.error.stage])).toEqual([['nowhere', 'discovery']]);
    expect(m.tools()).toHaveLength(1);
  });
});
