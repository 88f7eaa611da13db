import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, connect, fixture, waitFor } from '../__fixtures__/mcp-helpers.js';
import { parseMcpConfig } from './config.js';
import { connectMcpServers } from './mcp-manager.js';

afterEach(closeAll);

/** A server that takes `ms` to start (it holds `<pid>.starting` in `dir` meanwhile). */
function slowServer(dir: string, ms: number, tools = 3) {
  return fixture(`--tools=${tools}`, `--start-dir=${dir}`, `--start-ms=${ms}`);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// A host with hundreds of servers should not wait for the slowest before its first step: with
// `waitForServersMs`, connectMcpServers returns after that long and late servers join as they come up.
describe('servers that are still starting when connectMcpServers returns (waitForServersMs)', { timeout: 60_000 }, () => {
  it('returns without waiting for a slow server; its tools join the catalogue (and the gate) when it is ready', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aibuddy-late-'));
    const started = Date.now();
    // Gate total 4: the fast server's 2 tools alone are direct; with the slow one's 3, all 5 are deferred.
    const m = await connect(
      { fast: fixture('--tools=2'), slow: slowServer(dir, 6_000) },
      { waitForServersMs: 0, gate: { total: 4 } },
    );
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(m.starting()).toContain('slow');

    await waitFor(() => m.servers().find((s) => s.name === 'fast')?.status === 'ready', 20_000, 'the fast server');
    expect(m.starting()).toEqual(['slow']);
    expect(m.servers().find((s) => s.name === 'slow')?.status).toBe('starting');
    expect(m.tools().map((t) => t.server)).toEqual(['fast', 'fast']);
    expect(m.decision().deferred).toEqual([]);
    expect(m.deferredTools()).toEqual([]);
    const before = m.version;
    let joined = false;
    m.subscribe((e) => {
      if (e.type === 'server-ready' && e.server === 'slow') joined = true;
    });

    await m.whenStarted();
    expect(joined).toBe(true);
    expect(m.starting()).toEqual([]);
    expect(m.version).toBeGreaterThan(before);
    expect(m.tools().filter((t) => t.server === 'slow')).toHaveLength(3);
    expect(m.decision().deferred).toHaveLength(5);
    expect(
      m
        .deferredTools()
        .map((t) => t.server)
        .sort(),
    ).toEqual(['fast', 'fast', 'slow', 'slow', 'slow']);
    const slowTool = m.tools().find((t) => t.server === 'slow')!;
    expect(m.isAvailable(slowTool.name)).toBe(true);
    expect((await m.callTool(slowTool.name, {})).isError).not.toBe(true);
  });

  it('a call of a starting server’s tool name says the server is still starting (discovery stage)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aibuddy-late-'));
    const m = await connect({ slow: slowServer(dir, 6_000) }, { waitForServersMs: 0 });
    await expect(m.callTool('slow__get_weather', {})).rejects.toMatchObject({
      stage: 'discovery',
      message: expect.stringMatching(/"slow" is still starting/),
    });
  });

  it('waits for every server by default', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aibuddy-late-'));
    const m = await connect({ slow: slowServer(dir, 800) });
    expect(m.starting()).toEqual([]);
    expect(m.servers()[0]?.status).toBe('ready');
    await m.whenStarted(); // already settled: resolves at once
  });

  it('close() while a server is still starting ends its process, and whenStarted() settles', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aibuddy-late-'));
    const m = await connect({ slow: slowServer(dir, 20_000) }, { waitForServersMs: 0 });
    await waitFor(() => readdirSync(dir).some((f) => f.endsWith('.starting')), 20_000, 'the slow server to spawn');
    const pid = Number(
      readdirSync(dir)
        .find((f) => f.endsWith('.starting'))!
        .split('.')[0],
    );
    expect(alive(pid)).toBe(true);
    // At once, not when the 20 s start would have finished.
    const closing = Date.now();
    await m.close();
    expect(Date.now() - closing).toBeLessThan(5_000);
    await m.whenStarted();
    expect(m.starting()).toEqual([]);
    await waitFor(() => !alive(pid), 5_000, 'the slow server to exit');
  });

  it('refuses a waitForServersMs that is not a number ≥ 0, naming the option (discovery stage)', async () => {
    const config = parseMcpConfig({ mcpServers: {} });
    for (const bad of [-1, Number.NaN]) {
      await expect(connectMcpServers(config, { waitForServersMs: bad })).rejects.toMatchObject({
        stage: 'discovery',
        message: expect.stringMatching(/waitForServersMs/),
      });
    }
  });
});
