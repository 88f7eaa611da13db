import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, RegistryConsistencyError } from '@aibuddy/registry';
import type { ServerToolConfig } from '@aibuddy/registry';
import { composeAgent } from './compose.js';
import { chooseHostConfirmation } from './confirmation.js';
import { createModel } from './create-model.js';
import type { AgentEvent } from './events.js';
import { runTask } from './run-task.js';

const ping = defineTool({ name: 'ping', description: 'Answers pong.', inputSchema: z.object({}), execute: () => 'pong' });
const pingConfig: ServerToolConfig = { key: 'ping', toolNames: ['ping'], create: () => [ping] };

function base() {
  const workspace = mkdtempSync(join(tmpdir(), 'aibuddy-compose-'));
  return {
    workspace,
    taskId: 't1',
    confirmation: chooseHostConfirmation({ flag: 'reject', interactive: false, demo: false }),
  };
}

describe('composeAgent', () => {
  it('refuses to start on a registry mismatch, listing every problem', async () => {
    const model = createModel('demo', { demoScript: { steps: [{ text: 'x' }] } });
    const error = await composeAgent({ ...base(), model, extraConfigs: [pingConfig], extraNameMap: { pong: 'ping' } }).catch(
      (e: unknown) => e,
    );
    expect(RegistryConsistencyError.isInstance(error)).toBe(true);
    const problems = (error as RegistryConsistencyError).problems.map((p) => p.kind).sort();
    expect(problems).toEqual(['config-without-meta', 'tool-maps-to-wrong-config', 'tool-missing-from-map']);
    expect((error as Error).message).toMatch(/refusing to start/);
  });

  it("composes another host's group next to the built-in ones and runs it through runTask", async () => {
    const model = createModel('demo', {
      demoScript: { steps: [{ toolCalls: [{ toolName: 'ping', input: {}, id: 'p1' }] }, { text: 'pong received' }] },
    });
    const events: AgentEvent[] = [];
    const result = await runTask({
      ...base(),
      model,
      task: 'ping',
      extraConfigs: [pingConfig],
      extraMetas: { ping: { title: 'Ping', description: 'Ping.', category: 'integration' } },
      extraNameMap: { ping: 'ping' },
      onEvent: (e) => events.push(e),
    });
    expect(result).toMatchObject({ status: 'completed', steps: 2, text: 'pong received' });
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({
      toolCallId: 'p1',
      model: { type: 'text', value: 'pong' },
    });
    const first = events.find((e) => e.type === 'model-request');
    expect(first && first.type === 'model-request' && first.tools).toEqual(
      expect.arrayContaining(['ping', 'read_file', 'execute']),
    );
  });
});
