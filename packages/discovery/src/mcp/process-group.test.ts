import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, connect, waitFor } from '../__fixtures__/mcp-helpers.js';

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
