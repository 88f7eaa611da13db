import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMPACTION_THRESHOLD_TOKENS, createCompactor } from './compactor.js';
import { createTokenCounter } from './token-counter.js';
import { textWithTokens } from './__fixtures__/texts.js';

// The design fixes pre-compaction at 2,500 tokens: changing the default fails here.
const counter = createTokenCounter();
afterAll(() => counter.free());

describe('the 2,500-token threshold is pinned', () => {
  it('exports 2,500, and a default compactor compacts at 2,500 tokens but not at 2,499', async () => {
    expect(COMPACTION_THRESHOLD_TOKENS).toBe(2_500);
    const dataDir = await mkdtemp(join(tmpdir(), 'fixed-'));
    const compactor = createCompactor({ dataDir, tokenCounter: counter });
    expect(compactor.threshold).toBe(2_500);
    const info = (id: string, text: string) => ({
      toolCallId: id,
      toolName: 'big',
      input: {},
      output: text,
      modelOutput: { type: 'text' as const, value: text },
      taskId: 't',
    });
    expect(await compactor.compact(info('below', textWithTokens(2_499)))).toMatchObject({
      kind: 'untouched',
      reason: 'below the threshold',
    });
    expect(await compactor.compact(info('at', textWithTokens(2_500)))).toMatchObject({
      kind: 'compacted',
      originalTokens: 2_500,
    });
    await compactor.close();
    await rm(dataDir, { recursive: true, force: true });
  });
});
