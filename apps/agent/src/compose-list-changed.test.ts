import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, requireCapability } from '@aibuddy/registry';
import { chooseHostConfirmation } from './confirmation.js';
import { createModel } from './create-model.js';
import type { AgentEvent } from './events.js';
import { runTask } from './run-task.js';

// The discovery package's MCP test server: `add_tool` adds a tool and sends tools/list_changed.
const TEST_SERVER = fileURLToPath(new URL('../../../packages/discovery/src/__fixtures__/test-server.mjs', import.meta.url));

// A group offered only with the `deploy` capability: it must survive the re-resolution.
const deployConfig = {
  key: 'deploy',
  toolNames: ['deploy_preview'],
  requires: { preconditions: [requireCapability('deploy')] },
  create: () => [defineTool({ name: 'deploy_preview', description: 'Deploys.', inputSchema: z.object({}), execute: () => 'ok' })],
};

describe('the host follows tools/list_changed by itself (issue 15)', { timeout: 120_000 }, () => {
  it('a tool a server adds mid-run can be called at a later step, with no host code', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'aibuddy-list-changed-'));
    const model = createModel('demo', {
      demoScript: {
        steps: [
          { toolCalls: [{ toolName: 'dyn__add_tool', input: { name: 'brand_new' }, id: 'add' }] },
          // Time for the notification and the re-listing to arrive.
          { toolCalls: [{ toolName: 'dyn__slow_tool', input: { ms: 1500 }, id: 'wait' }] },
          { toolCalls: [{ toolName: 'dyn__brand_new', input: {}, id: 'new' }] },
          { text: 'used the new tool' },
        ],
      },
    });
    const events: AgentEvent[] = [];
    const result = await runTask({
      workspace,
      taskId: 'lc',
      confirmation: chooseHostConfirmation({ flag: 'approve', interactive: false, demo: false }),
      model,
      task: 'add and use a tool',
      mcpConfig: { mcpServers: { dyn: { command: process.execPath, args: [TEST_SERVER, '--tools=3', '--special'] } } },
      onEvent: (e) => events.push(e),
      capabilities: ['deploy'],
      extraConfigs: [deployConfig],
      extraMetas: { deploy: { title: 'Deploy', description: 'Previews.', category: 'integration' } },
      extraNameMap: { deploy_preview: 'deploy' },
    });
    const resultOf = (id: string) =>
      events.find((e) => e.type === 'tool-result' && e.toolCallId === id) as { error?: unknown; model?: unknown } | undefined;
    expect(resultOf('add')?.error).toBeUndefined();
    expect(resultOf('new')?.error).toBeUndefined();
    expect(JSON.stringify(resultOf('new')?.model)).toContain('brand_new ok');
    expect(result).toMatchObject({ status: 'completed', text: 'used the new tool' });
    const requests = events.filter((e) => e.type === 'model-request') as Array<{ tools: string[] }>;
    expect(requests[0]!.tools).not.toContain('dyn__brand_new');
    expect(requests[2]!.tools).toContain('dyn__brand_new');
    // The task's capabilities hold after the re-resolution too.
    expect(requests[0]!.tools).toContain('deploy_preview');
    expect(requests[2]!.tools).toContain('deploy_preview');
  });
});
