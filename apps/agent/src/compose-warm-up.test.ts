import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { composeAgent } from './compose.js';
import { chooseHostConfirmation } from './confirmation.js';
import { createModel } from './create-model.js';

// What happens to the compactor's token counter, in order: the host's start-up warm-up is visible
// only here (it changes no result, only when the encoder's one-time costs are paid).
const log = vi.hoisted(() => [] as string[]);
vi.mock('@aibuddy/compactor', async (importOriginal) => {
  const original = await importOriginal<typeof import('@aibuddy/compactor')>();
  return {
    ...original,
    createTokenCounter: (...args: Parameters<typeof original.createTokenCounter>) => {
      const counter = original.createTokenCounter(...args);
      return {
        ...counter,
        warmUp: () => {
          const tokens = counter.warmUp();
          log.push(tokens > 0 ? 'warm-up' : 'warm-up after free');
          return tokens;
        },
        free: () => {
          log.push('free');
          counter.free();
        },
      };
    },
    createCompactor: (...args: Parameters<typeof original.createCompactor>) => {
      const compactor = original.createCompactor(...args);
      return {
        ...compactor,
        close: async () => {
          log.push('compactor closed');
          await compactor.close();
        },
      };
    },
  };
});

const TEST_SERVER = fileURLToPath(new URL('../../../packages/discovery/src/__fixtures__/test-server.mjs', import.meta.url));

function base() {
  return {
    workspace: mkdtempSync(join(tmpdir(), 'aibuddy-warm-up-')),
    taskId: 'warm',
    confirmation: chooseHostConfirmation({ flag: 'reject', interactive: false, demo: false }),
    model: createModel('demo', { demoScript: { steps: [{ text: 'x' }] } }),
  };
}

describe('composeAgent warms the token counter at start-up', () => {
  it('without MCP servers: at once, before the agent is returned; freed after the compactor closes', async () => {
    log.length = 0;
    const agent = await composeAgent(base());
    expect(log).toEqual(['warm-up']);
    await agent.close();
    expect(log).toEqual(['warm-up', 'compactor closed', 'free']);
  });

  it('with MCP servers: while they start, before the first step can run', async () => {
    log.length = 0;
    const agent = await composeAgent({
      ...base(),
      mcpConfig: { mcpServers: { tools: { command: process.execPath, args: [TEST_SERVER, '--tools=3'] } } },
    });
    try {
      expect(log).toEqual(['warm-up']);
    } finally {
      await agent.close();
    }
    expect(log).toEqual(['warm-up', 'compactor closed', 'free']);
  });
});
