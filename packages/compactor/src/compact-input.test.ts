import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelMessage } from 'ai';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineTool } from '@aibuddy/registry';
import { createCompactor } from './compactor.js';
import type { CompactionEvent } from './compactor-types.js';
import { rebuildContext } from './rebuild-context.js';
import { createTokenCounter } from './token-counter.js';
import { readPage } from './view-page.js';

const counter = createTokenCounter();
afterAll(() => counter.free());
let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'compact-input-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const big = Array.from({ length: 4000 }, (_, i) => `row ${i} ${'abc '.repeat(8)}`).join('\n');
const writer = defineTool({
  name: 'write_it',
  description: 'Writes text.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  execute: () => 'written',
  // Small output, large input: only the input has a compact form.
  compact: (args) => ({
    strategy: 'keep',
    ...(args.inputTokens !== undefined && args.inputTokens >= (args.threshold ?? 0)
      ? { input: { text: `[${(args.input as { text: string }).text.length} characters]` } }
      : {}),
  }),
});

describe('compact inputs', () => {
  it('a large input gets the hook\'s compact form in later steps; the raw input stays readable with part "input"', async () => {
    const events: CompactionEvent[] = [];
    const compactor = createCompactor({ dataDir, tokenCounter: counter, onCompaction: (e) => events.push(e) });
    const info = {
      toolCallId: 'w1',
      toolName: 'write_it',
      definition: writer,
      input: { text: big },
      output: 'written',
      modelOutput: { type: 'text' as const, value: 'written' },
      taskId: 't1',
    };
    compactor.hooks.onToolExecutionEnd(info);
    // The output is unchanged for the model.
    expect(await compactor.hooks.resolveModelOutput(info)).toBeUndefined();
    const outcome = await compactor.outcomeOf('t1', 'w1');
    expect(outcome).toMatchObject({ kind: 'untouched', compactedInput: { text: `[${big.length} characters]` } });
    expect(events).toMatchObject([{ part: 'input', toolCallId: 'w1', compactedInput: { text: `[${big.length} characters]` } }]);
    expect(events[0]!.originalTokens).toBeGreaterThanOrEqual(2_500);

    const history: ModelMessage[] = [
      { role: 'user', content: 'write it' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'w1', toolName: 'write_it', input: { text: big } }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'w1', toolName: 'write_it', output: { type: 'text', value: 'written' } }],
      },
    ];
    const rebuilt = await rebuildContext(history, { compactor, taskId: 't1', tools: { write_it: writer } });
    expect(JSON.stringify(rebuilt)).not.toContain('row 3999');
    expect(JSON.stringify(rebuilt)).toContain(`[${big.length} characters]`);
    // The history given to it is not mutated.
    expect(JSON.stringify(history)).toContain('row 3999');

    // A later process (a resume) finds the compact input on disk, and the raw input byte for byte.
    await compactor.close();
    const again = createCompactor({ dataDir, tokenCounter: counter });
    const resumed = await rebuildContext(history, { compactor: again, taskId: 't1', tools: { write_it: writer } });
    expect(JSON.stringify(resumed)).not.toContain('row 3999');
    let text = '';
    for (let offset: number | null = 0; offset !== null; ) {
      const page = await readPage(again.store, { taskId: 't1', toolCallId: 'w1', part: 'input', offset, limit: 50_000 });
      text += page.content;
      offset = page.nextOffset;
    }
    expect(JSON.parse(text)).toEqual({ text: big });
    await again.close();
  });

  it('leaves an input below the threshold alone and asks no hook', async () => {
    let asked = 0;
    const tool = defineTool({
      name: 'write_small',
      description: 'Writes text.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      execute: () => 'ok',
      compact: () => (asked++, { strategy: 'keep' }),
    });
    const compactor = createCompactor({ dataDir, tokenCounter: counter });
    const outcome = await compactor.compact({
      toolCallId: 's1',
      toolName: 'write_small',
      definition: tool,
      input: { text: 'short' },
      output: 'ok',
      modelOutput: { type: 'text', value: 'ok' },
      taskId: 't1',
    });
    expect(outcome).toMatchObject({ kind: 'untouched' });
    expect(outcome.compactedInput).toBeUndefined();
    expect(asked).toBe(0);
    await compactor.close();
  });
});
