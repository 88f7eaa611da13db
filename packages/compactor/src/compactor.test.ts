import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defineTool } from '@aibuddy/registry';
import type { CompactHook, ModelOutput } from '@aibuddy/registry';
import type { RuntimeHooks } from '@aibuddy/runtime';
import { scriptedModel } from '@aibuddy/test-utils';
import { createCompactor } from './compactor.js';
import type { CompactionEvent, CompactionInput } from './compactor-types.js';
import type { CompactorError } from './errors.js';
import { createResultStore } from './result-store.js';
import { createTokenCounter } from './token-counter.js';
import { textWithTokens } from './__fixtures__/texts.js';

const counter = createTokenCounter();
afterAll(() => counter.free());

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'compactor-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

function tool(options: { compact?: CompactHook; disposable?: boolean; exempt?: boolean; name?: string } = {}) {
  return defineTool({
    name: options.name ?? 'big_tool',
    description: 'Returns a lot of text.',
    inputSchema: { type: 'object', properties: {} },
    execute: () => '',
    ...(options.compact ? { compact: options.compact } : {}),
    ...(options.disposable ? { disposable: true } : {}),
    ...(options.exempt ? { exemptFromCompaction: true } : {}),
  });
}

function endInfo(text: string, definition = tool(), toolCallId = 'call_1'): CompactionInput & { modelOutput: ModelOutput } {
  return {
    toolCallId,
    toolName: definition.name,
    definition,
    input: { what: 'everything' },
    output: text,
    modelOutput: { type: 'text', value: text },
    taskId: 'task-1',
    signal: new AbortController().signal,
  };
}

function setup(extra: Partial<Parameters<typeof createCompactor>[0]> = {}) {
  const events: CompactionEvent[] = [];
  const warnings: CompactorError[] = [];
  const compactor = createCompactor({
    dataDir,
    tokenCounter: counter,
    onCompaction: (e) => events.push(e),
    onWarning: (w) => warnings.push(w),
    ...extra,
  });
  return { compactor, events, warnings };
}

async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return [];
  }
}

/** Runs a finished call through the hooks the way the runtime does. */
async function throughHooks(hooks: RuntimeHooks, info: CompactionInput & { modelOutput: ModelOutput }) {
  hooks.onToolExecutionEnd?.(info as never);
  return hooks.resolveModelOutput?.(info as never);
}

describe('threshold', () => {
  it('leaves a result of 2,499 tokens untouched and compacts one of 2,500 tokens', async () => {
    const { compactor, events } = setup();
    const below = textWithTokens(2_499);
    const at = textWithTokens(2_500);
    expect(await throughHooks(compactor.hooks, endInfo(below, tool(), 'call_below'))).toBeUndefined();
    const compacted = await throughHooks(compactor.hooks, endInfo(at, tool(), 'call_at'));
    expect(compacted?.type).toBe('text');
    expect((compacted as { value: string }).value).toContain('view_tool_call');
    expect((compacted as { value: string }).value).toContain('"toolCallId":"call_at"');
    expect(events.map((e) => [e.toolCallId, e.strategy, e.originalTokens])).toEqual([['call_at', 'trim', 2_500]]);
    expect(events[0]!.compactedTokens).toBeLessThan(2_500);
    expect(events[0]!.compactedTokens).toBe(counter.count((compacted as { value: string }).value));
    expect(await compactor.outcomeOf('task-1', 'call_below')).toMatchObject({ kind: 'untouched', tokens: 2_499 });
    expect(await filesUnder(join(dataDir, 'compacted_outputs'))).toEqual(['call_at.json']);
  });

  it("returns from onToolExecutionEnd at once: nothing is counted or written on the caller's path", async () => {
    // A counter that records every counting call: none may happen before the caller gets control back.
    const counted: string[] = [];
    const spy = {
      ...counter,
      count: (text: string) => (counted.push('count'), counter.count(text)),
      countAsync: (text: string, signal?: AbortSignal) => (counted.push('countAsync'), counter.countAsync(text, signal)),
      free: () => undefined,
    };
    const { compactor } = setup({ tokenCounter: spy });
    const info = endInfo(textWithTokens(5_000));
    compactor.hooks.onToolExecutionEnd(info);
    // The timing is the benchmark's job; here: no token was counted and no file written synchronously.
    expect(counted).toEqual([]);
    expect(await filesUnder(join(dataDir, 'compacted_outputs'))).toEqual([]);
    await compactor.whenIdle();
    expect(counted).toContain('countAsync');
    expect(await filesUnder(join(dataDir, 'compacted_outputs'))).toEqual(['call_1.json']);
  });

  it('never compacts media content (images would be corrupted)', async () => {
    const { compactor } = setup();
    const info = endInfo('');
    const image = { type: 'image-data', data: 'A'.repeat(40_000), mediaType: 'image/png' };
    const view = await throughHooks(compactor.hooks, {
      ...info,
      modelOutput: { type: 'content', value: [{ type: 'text', text: 'chart' }, image] },
    });
    expect(view).toBeUndefined();
    expect(await compactor.outcomeOf('task-1', 'call_1')).toMatchObject({
      kind: 'untouched',
      reason: 'media content is not compacted',
    });
  });

  it('forgets the oldest settled outcomes beyond maxTrackedCalls', async () => {
    const { compactor } = setup({ maxTrackedCalls: 2 });
    for (const id of ['a', 'b', 'c']) await compactor.compact(endInfo('small', tool(), id));
    await new Promise((r) => setImmediate(r));
    expect(await compactor.outcomeOf('task-1', 'a')).toBeUndefined();
    expect(await compactor.outcomeOf('task-1', 'c')).toMatchObject({ kind: 'untouched' });
  });

  it('never compacts failed calls, exempt tools or view_tool_call reads', async () => {
    const { compactor, events } = setup();
    const big = textWithTokens(3_000);
    expect(await throughHooks(compactor.hooks, { ...endInfo(big), error: new Error('boom') })).toBeUndefined();
    expect(await throughHooks(compactor.hooks, endInfo(big, tool({ exempt: true }), 'call_exempt'))).toBeUndefined();
    expect(await throughHooks(compactor.hooks, endInfo(big, tool({ name: 'view_tool_call' }), 'call_view'))).toBeUndefined();
    expect(events).toEqual([]);
  });
});

describe('a call id used again by a later call', () => {
  it("the later call never gets the earlier call's compacted view", async () => {
    // Hosts should give every call its own id (`withUniqueToolCallIds`); when one does not, a
    // small later result must still reach the model as it is.
    const { compactor } = setup();
    const first = await throughHooks(compactor.hooks, endInfo(`FIRST ${textWithTokens(3_000)}`, tool(), 'call_0'));
    expect(JSON.stringify(first)).toContain('FIRST');
    expect(await throughHooks(compactor.hooks, endInfo('the second, small result', tool(), 'call_0'))).toBeUndefined();
  });
});

describe('strategies', () => {
  it('uses a trimmed form only when it is smaller than the original', async () => {
    const big = textWithTokens(3_000);
    const { compactor, events } = setup();
    const bloated = tool({ compact: ({ modelText }) => ({ strategy: 'trim', modelOutput: `${modelText}\n${modelText}` }) });
    expect(await throughHooks(compactor.hooks, endInfo(big, bloated, 'call_bloat'))).toBeUndefined();
    expect(await compactor.outcomeOf('task-1', 'call_bloat')).toMatchObject({
      kind: 'untouched',
      reason: 'the compacted form is not smaller',
    });
    expect(await filesUnder(join(dataDir, 'compacted_outputs'))).toEqual([]);

    const lean = tool({
      compact: () => ({ strategy: 'trim', modelOutput: { type: 'json', value: { lines: 250, first: 'ok' } } }),
    });
    const view = await throughHooks(compactor.hooks, endInfo(big, lean, 'call_lean'));
    expect((view as { value: string }).value).toMatch(/^\{"lines":250,"first":"ok"\}\n\n\[Compacted view/);
    expect(events.map((e) => [e.toolCallId, e.strategy, e.source])).toEqual([['call_lean', 'trim', 'hook']]);
  });

  it('keeps a result when the hook says keep', async () => {
    const { compactor, events } = setup();
    const keep = tool({ compact: () => ({ strategy: 'keep' }) });
    expect(await throughHooks(compactor.hooks, endInfo(textWithTokens(3_000), keep))).toBeUndefined();
    expect(events).toEqual([]);
  });

  it("drops a disposable tool's result after use, without a pointer or a file", async () => {
    const { compactor, events } = setup();
    const disposable = tool({ compact: () => ({ strategy: 'drop' }), disposable: true });
    // The step right after the call still sees the full result: that is its use.
    expect(await throughHooks(compactor.hooks, endInfo(textWithTokens(3_000), disposable, 'call_drop'))).toBeUndefined();
    const outcome = await compactor.outcomeOf('task-1', 'call_drop');
    expect(outcome).toMatchObject({ kind: 'compacted', strategy: 'drop' });
    const view = outcome?.kind === 'compacted' ? outcome.model : undefined;
    expect((view as { value: string }).value).toContain('dropped');
    expect((view as { value: string }).value).not.toContain('view_tool_call with');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ strategy: 'drop', toolCallId: 'call_drop' });
    expect(events[0]!.pointer).toBeUndefined();
    expect(await filesUnder(join(dataDir, 'compacted_outputs'))).toEqual([]);
  });

  it('refuses drop for a tool not declared disposable: the result is trimmed and stays recoverable', async () => {
    const { compactor, events, warnings } = setup();
    const liar = tool({ compact: () => ({ strategy: 'drop' }) });
    const view = await throughHooks(compactor.hooks, endInfo(textWithTokens(3_000), liar, 'call_liar'));
    expect((view as { value: string }).value).toContain('view_tool_call');
    expect(events[0]).toMatchObject({ strategy: 'trim', source: 'default', pointer: expect.stringMatching(/call_liar\.json$/) });
    expect(warnings.map((w) => w.message).join()).toMatch(/not declared disposable/);
    expect(await filesUnder(join(dataDir, 'compacted_outputs'))).toEqual(['call_liar.json']);
  });

  it("summarises through the injected model with the hook's focus, and keeps the pointer", async () => {
    const model = scriptedModel([{ text: 'Summary: 250 build steps, all ok.' }]);
    const { compactor, events } = setup({ summaryModel: model });
    const summarising = tool({ compact: () => ({ strategy: 'summary', focus: 'failed steps' }) });
    const view = await throughHooks(compactor.hooks, endInfo(textWithTokens(3_000), summarising, 'call_sum'));
    expect((view as { value: string }).value).toMatch(/^Summary: 250 build steps, all ok\.\n\n\[Compacted summary/);
    expect(JSON.stringify(model.calls[0]!.prompt)).toContain('Keep especially: failed steps');
    expect(events[0]).toMatchObject({ strategy: 'summary', source: 'hook', pointer: expect.stringMatching(/call_sum\.json$/) });
  });

  it('falls back to trimming when no summary model is injected or the summary fails', async () => {
    const failing = new MockLanguageModelV3({
      doGenerate: async () => {
        throw new Error('provider down');
      },
    });
    const { compactor, events, warnings } = setup({ summaryModel: failing });
    const summarising = tool({ compact: () => ({ strategy: 'summary' }) });
    await throughHooks(compactor.hooks, endInfo(textWithTokens(3_000), summarising, 'call_fail'));
    expect(events[0]).toMatchObject({ strategy: 'trim', source: 'default' });
    expect(warnings.some((w) => /summary of big_tool failed/.test(w.message))).toBe(true);

    const none = setup();
    await throughHooks(none.compactor.hooks, endInfo(textWithTokens(3_000), summarising, 'call_none'));
    expect(none.events[0]).toMatchObject({ strategy: 'trim', source: 'default' });
    expect(none.warnings[0]?.message).toMatch(/no summary model/);
  });

  it('applies the default head + tail policy to tools without a hook', async () => {
    const { compactor } = setup();
    const text = textWithTokens(6_000);
    const view = (await throughHooks(compactor.hooks, endInfo(text))) as { value: string };
    expect(view.value.startsWith(text.slice(0, 200))).toBe(true);
    expect(view.value).toContain(text.slice(-200));
    expect(view.value).toMatch(/\[\.\.\. \d+ characters omitted \.\.\.\]/);
  });
});

describe('stopping', () => {
  it('a user stop cancels a running summary and leaves no file, not even a temp file', async () => {
    let sawAbort = false;
    const hanging = new MockLanguageModelV3({
      doGenerate: (options) =>
        new Promise((_, reject) => {
          options.abortSignal?.addEventListener('abort', () => {
            sawAbort = true;
            reject(options.abortSignal?.reason);
          });
        }),
    });
    const { compactor, events } = setup({ summaryModel: hanging });
    const summarising = tool({ compact: () => ({ strategy: 'summary' }) });
    const info = endInfo(textWithTokens(3_000), summarising, 'call_stop');
    compactor.hooks.onToolExecutionEnd(info);
    // Stop once the summary request is in flight (not after a guessed delay).
    await vi.waitFor(() => expect(hanging.doGenerateCalls).toHaveLength(1));
    compactor.cancel(new Error('user pressed stop'));
    expect(await compactor.hooks.resolveModelOutput(info)).toBeUndefined();
    expect(sawAbort).toBe(true);
    expect(events).toEqual([]);
    expect(await filesUnder(dataDir)).toEqual([]);
    // A new run on the same compactor compacts again.
    expect(await throughHooks(compactor.hooks, endInfo(textWithTokens(3_000), tool(), 'call_after'))).toBeDefined();
  });

  it("honours the run's own signal and the signal in the call info", async () => {
    const run = new AbortController();
    const { compactor } = setup({ signal: run.signal });
    run.abort();
    expect(await throughHooks(compactor.hooks, endInfo(textWithTokens(3_000)))).toBeUndefined();
    expect(await filesUnder(dataDir)).toEqual([]);
  });

  it('close frees the encoder it owns and later calls are untouched', async () => {
    const compactor = createCompactor({ dataDir });
    await compactor.close();
    await compactor.close();
    expect(() => compactor.tokenCounter.count('x')).toThrow(/freed/);
    expect(await compactor.compact(endInfo(textWithTokens(3_000)))).toMatchObject({
      kind: 'untouched',
      reason: 'the compactor is closed',
    });
  });
});

describe('failures', () => {
  it('a store that cannot write (disk full) keeps the full view and reports a warning', async () => {
    const full = createResultStore({ dataDir, beforeRename: () => Promise.reject(new Error('ENOSPC: no space left on device')) });
    const { compactor, events, warnings } = setup({ store: full });
    expect(await throughHooks(compactor.hooks, endInfo(textWithTokens(3_000)))).toBeUndefined();
    expect(events).toEqual([]);
    expect(warnings[0]?.message).toMatch(/ENOSPC/);
    expect(warnings[0]?.stage).toBe('projection');
  });

  it('a throwing compact hook falls back to the default policy', async () => {
    const { compactor, events, warnings } = setup();
    const broken = tool({
      compact: () => {
        throw new Error('hook bug');
      },
    });
    expect(await throughHooks(compactor.hooks, endInfo(textWithTokens(3_000), broken))).toBeDefined();
    expect(events[0]).toMatchObject({ strategy: 'trim', source: 'default' });
    expect(warnings[0]?.message).toMatch(/hook bug/);
  });
});

describe('types', () => {
  it("the hooks are assignable to the runtime's RuntimeHooks", () => {
    const { compactor } = setup();
    const hooks: RuntimeHooks = compactor.hooks;
    expect(typeof hooks.onToolExecutionEnd).toBe('function');
  });
});
