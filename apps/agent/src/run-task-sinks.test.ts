// A caller's event sink is the caller's code: when it throws (a full disk under an event log, a
// bug), the run must go on and end as it would have, with its MCP servers closed, as the runtime
// already does for the sinks it calls.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '@aibuddy/registry';
import type { ServerToolConfig } from '@aibuddy/registry';
import { chooseHostConfirmation } from './confirmation.js';
import { createModel } from './create-model.js';
import { runTask } from './run-task.js';

const TEST_SERVER = fileURLToPath(new URL('../../../packages/discovery/src/__fixtures__/test-server.mjs', import.meta.url));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('runTask with event sinks that throw', { timeout: 60_000 }, () => {
  it('runs to the end, and closes its MCP servers, when every onEvent and onLiveEvent call throws', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aibuddy-sinks-'));
    const pidFile = join(dir, 'server.pid');
    let pings = 0;
    const ping = defineTool({
      name: 'ping',
      description: 'Answers pong.',
      inputSchema: z.object({}),
      execute: () => {
        pings++;
        return 'pong';
      },
    });
    const pingConfig: ServerToolConfig = { key: 'ping', toolNames: ['ping'], create: () => [ping] };
    const model = createModel('demo', {
      demoScript: { steps: [{ toolCalls: [{ toolName: 'ping', input: {}, id: 'p1' }] }, { text: 'pong received' }] },
    });
    let calls = 0;
    const warnings: string[] = [];
    const result = await runTask({
      workspace: mkdtempSync(join(tmpdir(), 'aibuddy-sinks-ws-')),
      dataDir: join(dir, 'data'),
      taskId: 'sinks',
      confirmation: chooseHostConfirmation({ flag: 'reject', interactive: false, demo: false }),
      model,
      task: 'ping',
      // `exec` keeps the pid: the file names the server process itself.
      mcpConfig: {
        mcpServers: {
          srv: { command: 'sh', args: ['-c', `echo $$ > "${pidFile}"; exec "${process.execPath}" "${TEST_SERVER}" --tools=2`] },
        },
      },
      mcpStartWaitMs: 20_000,
      extraConfigs: [pingConfig],
      extraMetas: { ping: { title: 'Ping', description: 'Ping.', category: 'integration' } },
      extraNameMap: { ping: 'ping' },
      onEvent: () => {
        calls++;
        throw new Error('ENOSPC: no space left on device, write');
      },
      onLiveEvent: () => {
        throw new Error('the display went away');
      },
      onWarning: (w) => warnings.push(w),
    });
    expect(result).toMatchObject({ status: 'completed', steps: 2, text: 'pong received' });
    expect(pings).toBe(1);
    // Every event was still offered to the sink (run-start, model requests, the call, run-end).
    expect(calls).toBeGreaterThan(4);
    // Each failing sink is reported once, naming itself and its error.
    expect(warnings.filter((w) => w.includes('threw'))).toEqual([
      expect.stringMatching(/^onLiveEvent threw \(the display went away\)/),
      expect.stringMatching(/^onEvent threw \(ENOSPC/),
    ]);
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid)).toBe(false);
  });
});
