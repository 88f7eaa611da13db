import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startEmbeddingsServer,
  type EmbeddingsServer,
} from '../../../packages/discovery/src/search/__fixtures__/embeddings-server.js';
import { chooseHostConfirmation } from './confirmation.js';
import { createEmbeddingModel } from './embedding-model.js';
import { createModel } from './create-model.js';
import { AgentStartupError, ArgumentError } from './errors.js';
import type { AgentEvent } from './events.js';
import { runTask } from './run-task.js';

const TEST_SERVER = fileURLToPath(new URL('../../../packages/discovery/src/__fixtures__/test-server.mjs', import.meta.url));

let embeddings: EmbeddingsServer;
beforeAll(async () => {
  // The loopback "model" knows that to swap cash bills is to convert money between currencies; no
  // tool's text says "swap", "cash" or "bills", so only the semantic side can find that tool.
  embeddings = await startEmbeddingsServer({ swap: 'convert', cash: 'money', bill: 'currencies' });
});
afterAll(() => embeddings.close());

async function run(query: string, env: Record<string, string>) {
  const workspace = mkdtempSync(join(tmpdir(), 'aibuddy-embedding-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'aibuddy-embedding-data-'));
  const events: AgentEvent[] = [];
  const warnings: string[] = [];
  await runTask({
    workspace,
    dataDir,
    taskId: 'emb',
    task: 'find a tool',
    confirmation: chooseHostConfirmation({ flag: 'reject', interactive: false, demo: false }),
    model: createModel('demo', {
      demoScript: { steps: [{ toolCalls: [{ toolName: 'tool_search', input: { query }, id: 's' }] }, { text: 'found' }] },
    }),
    // 15 tools on one server: deferred behind tool_search.
    mcpConfig: { mcpServers: { big: { command: process.execPath, args: [TEST_SERVER, '--tools=15'] } } },
    embeddingModel: createEmbeddingModel('openai:text-embedding-3-small', env),
    onEvent: (e) => events.push(e),
    onWarning: (w) => warnings.push(w),
  });
  const result = events.find((e) => e.type === 'tool-result' && e.toolCallId === 's') as { model?: unknown } | undefined;
  return { found: JSON.stringify(result?.model ?? ''), dataDir, warnings };
}

describe('--embedding-model: tool_search with the host embedding model (issue 15)', { timeout: 120_000 }, () => {
  it('fuses semantic similarity into tool_search and caches tool vectors in the data folder', async () => {
    const { found, dataDir, warnings } = await run('swap cash bills', {
      OPENAI_API_KEY: 'test',
      OPENAI_BASE_URL: embeddings.baseURL,
    });
    expect(found).toContain('big__convert_currency');
    expect(readdirSync(join(dataDir, 'tool-embeddings'))).toEqual(['openai.embedding--text-embedding-3-small.json']);
    expect(warnings.filter((w) => w.includes('tool_search'))).toEqual([]);
  });

  it('falls back to lexical ranking with a warning when the endpoint is unreachable', async () => {
    const { found, warnings } = await run('convert money between currencies', {
      OPENAI_API_KEY: 'test',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
    });
    expect(found).toContain('big__convert_currency');
    expect(warnings.join('\n')).toMatch(/\[discovery\] tool_search: .*lexical/);
  });

  it('refuses another provider or a missing key, naming the fix', () => {
    expect(() => createEmbeddingModel('cohere:embed-v4', {})).toThrow(ArgumentError);
    const error = (() => {
      try {
        createEmbeddingModel('openai:text-embedding-3-small', {});
      } catch (e) {
        return e;
      }
    })();
    expect(AgentStartupError.isInstance(error) && error.stage).toBe('parameters');
    expect((error as AgentStartupError).fix).toMatch(/OPENAI_API_KEY/);
  });
});
