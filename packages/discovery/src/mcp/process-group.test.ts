import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, closeAll, connect, procStat, TEST_SERVER, waitFor } from '../__fixtures__/mcp-helpers.js';

// Daemons a test started: killed after it whatever happened, so a failing test leaves no sleep behind.
const daemons = new Set<number>();
afterEach(async () => {
  await closeAll();
  for (const pid of daemons) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  daemons.clear();
});

const WRAPPER = fileURLToPath(new URL('../__fixtures__/wrapper-server.sh', import.meta.url));
const DAEMON_WRAPPER = fileURLToPath(new URL('../__fixtures__/daemon-wrapper-server.sh', import.meta.url));
const hasProc = existsSync('/proc/self/environ');

/** A stdio entry running the daemonizing wrapper; resolves the daemon's pid once it is written. */
function daemonServer(dir: string, name: string): { entry: Record<string, unknown>; daemonPid: () => Promise<number> } {
  const pidFile = join(dir, `${name}.pid`);
  return {
    entry: { command: '/bin/sh', args: [DAEMON_WRAPPER], env: { NODE: process.execPath, DAEMON_PID_FILE: pidFile } },
    daemonPid: async () => {
      await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 10_000, `${name}'s daemon pid`);
      const pid = Number(readFileSync(pidFile, 'utf8'));
      daemons.add(pid);
      return pid;
    },
  };
}

/** Live pids whose process group is `pgid`. */
function groupMembers(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => procStat(pid)?.pgrp === pgid && alive(pid));
}

describe('stdio servers run in their own process group', () => {
  it('a wrapper-started server that forks a child: after close no process of the tree is alive', async () => {
    const m = await connect({ wrapped: { command: '/bin/sh', args: [WRAPPER], env: { NODE: process.execPath } } });
    expect(m.servers()[0]?.status).toBe('ready');
    expect(m.tools()).toHaveLength(3);
    // The server's pid is its process group id.
    const pgid = m.servers()[0]!.pid!;
    expect(pgid).toBeGreaterThan(0);
    // The shell, the forked sleep and the node server share the group.
    await waitFor(() => groupMembers(pgid).length >= 3, 10_000, 'the wrapper, its sleep and the server');
    await m.close();
    await waitFor(() => groupMembers(pgid).length === 0, 10_000, 'every process of the group to end');
    expect(groupMembers(pgid)).toEqual([]);
  });
});

describe.skipIf(!hasProc)('processes that leave the group (setsid, daemons) are ended too (Linux)', () => {
  it('a helper that makes a session of its own and is re-parented: close ends it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aibuddy-daemon-'));
    try {
      const server = daemonServer(dir, 'one');
      const m = await connect({ daemonized: server.entry });
      expect(m.servers()[0]?.status).toBe('ready');
      const pgid = m.servers()[0]!.pid!;
      const daemon = await server.daemonPid();
      // It really left: neither the server's group nor its session, so a signal to the group misses it.
      expect(alive(daemon)).toBe(true);
      expect(procStat(daemon)).toMatchObject({ pgrp: daemon, session: daemon });
      expect(procStat(daemon)!.pgrp).not.toBe(pgid);
      await m.close();
      await waitFor(() => !alive(daemon), 10_000, 'the daemon to end after close');
      expect(alive(daemon)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("closing one server ends its daemon only, not another server's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aibuddy-daemon-'));
    try {
      const first = daemonServer(dir, 'first');
      const second = daemonServer(dir, 'second');
      const m1 = await connect({ first: first.entry });
      const m2 = await connect({ second: second.entry });
      const [d1, d2] = [await first.daemonPid(), await second.daemonPid()];
      await m1.close();
      await waitFor(() => !alive(d1), 10_000, "the first server's daemon to end");
      expect(alive(d2)).toBe(true);
      await m2.close();
      await waitFor(() => !alive(d2), 10_000, "the second server's daemon to end");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('close finishes in a host with nothing else to do', () => {
  const dist = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

  it('the built package is available (run `pnpm build` first)', () => {
    expect(existsSync(dist), `${dist} is missing: build @aibuddy/discovery first`).toBe(true);
  });

  // A server that ignores the end of stdin and SIGTERM is killed, and close must still resolve when
  // that server was the last thing keeping the host's event loop alive: else the host exits with 13
  // (a top-level await that never settled) and skips whatever it does after close.
  it('a server that ignores stdin and SIGTERM: close resolves and the host exits 0', () => {
    const dir = mkdtempSync(join(tmpdir(), 'aibuddy-close-'));
    try {
      const script = join(dir, 'host.mjs');
      writeFileSync(
        script,
        `const { connectMcpServers, parseMcpConfig } = await import(${JSON.stringify(dist)});
const config = parseMcpConfig({ mcpServers: { stubborn: { command: process.execPath, args: [${JSON.stringify(TEST_SERVER)}, '--tools=1', '--stubborn'] } } });
const m = await connectMcpServers(config, { shutdownGraceMs: 100, reconnect: false });
const pid = m.servers()[0].pid;
await m.close();
let alive = true;
try { process.kill(pid, 0); } catch { alive = false; }
console.log(JSON.stringify({ closed: true, status: m.servers()[0].status, alive }));
`,
      );
      const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000 });
      expect({ status: run.status, stdout: run.stdout.trim(), stderr: run.stderr }).toEqual({
        status: 0,
        stdout: JSON.stringify({ closed: true, status: 'closed', alive: false }),
        stderr: '',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // A host that exits without closing its servers (an uncaught error, process.exit) still ends their
  // trees, daemons included: the exit hook kills the groups and the processes carrying their mark.
  it.skipIf(!hasProc)('a host that exits without close: the daemon of its server is ended too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aibuddy-exit-'));
    try {
      const server = daemonServer(dir, 'exit');
      const script = join(dir, 'host.mjs');
      writeFileSync(
        script,
        `const { connectMcpServers, parseMcpConfig } = await import(${JSON.stringify(dist)});
const config = parseMcpConfig({ mcpServers: { daemonized: ${JSON.stringify(server.entry)} } });
const m = await connectMcpServers(config, { reconnect: false });
console.log(m.servers()[0].status);
process.exit(0);
`,
      );
      const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000 });
      expect({ status: run.status, stdout: run.stdout.trim(), stderr: run.stderr }).toEqual({
        status: 0,
        stdout: 'ready',
        stderr: '',
      });
      const daemon = await server.daemonPid();
      await waitFor(() => !alive(daemon), 10_000, 'the daemon to end with the host');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
