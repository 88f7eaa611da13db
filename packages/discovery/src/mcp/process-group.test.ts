import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, connect, TEST_SERVER, waitFor } from '../__fixtures__/mcp-helpers.js';

afterEach(closeAll);

const WRAPPER = fileURLToPath(new URL('../__fixtures__/wrapper-server.sh', import.meta.url));

/** Pids whose process group is `pgid`, read from /proc (field 5 of /proc/<pid>/stat). */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return members;
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
});
