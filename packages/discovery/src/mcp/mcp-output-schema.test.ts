// A tool's declared output schema checks the structured content of its results (MCP 2025-06-18:
// clients SHOULD validate), over a real stdio server, through the runtime as the model sees it.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { generateText, stepCountIs } from 'ai';
import { resolveToolSet } from '@aibuddy/registry';
import { createAiTools } from '@aibuddy/runtime';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closeAll, connect, fixture } from '../__fixtures__/mcp-helpers.js';
import { MCP_SCHEMA_CHECK_TIMEOUT_MS } from './bounded-schema-check.js';
import { readMcpOutputSchema } from './mcp-output-schema.js';
import { createMcpToolDefinition, normalizeMcpInputSchema } from './mcp-tool.js';
import { MAX_WORKER_VALIDATORS, SchemaCheckWorker, schemaCheckWorker } from './schema-check-worker.js';
import type { McpToolInfo } from './mcp-tool.js';

const require = createRequire(import.meta.url);

afterEach(closeAll);
const dir = mkdtempSync(join(tmpdir(), 'aibuddy-output-schema-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs one model step calling `tools` (name → input); returns the model's view of each result. */
async function callAll(manager: Awaited<ReturnType<typeof connect>>, calls: Record<string, Record<string, unknown>>) {
  const set = await resolveToolSet({ configs: manager.toolConfigs() });
  const model = scriptedModel([
    { toolCalls: Object.entries(calls).map(([id, input]) => ({ toolName: String(input.tool), input: input.input, id })) },
    { text: 'done' },
  ]);
  await generateText({ model, tools: createAiTools(set), prompt: 'go', stopWhen: stepCountIs(3) });
  return Object.fromEntries(Object.keys(calls).map((id) => [id, lastToolResult(model, id)?.output]));
}

describe('MCP output schemas', () => {
  it('a result that breaks its schema, or lacks structured content, fails at verification after the call ran', async () => {
    const callsFile = join(dir, 'calls');
    const m = await connect({ lists: fixture('--tools=0', '--structured', `--calls-file=${callsFile}`) });
    const tool = 'lists__count_items';
    const out = await callAll(m, {
      good: { tool, input: { mode: 'good' } },
      bad: { tool, input: { mode: 'bad' } },
      missing: { tool, input: { mode: 'missing' } },
      error: { tool, input: { mode: 'error' } },
    });
    expect(out.good).toEqual({ type: 'text', value: 'the list has 3 items' });
    // Each problem by its path under structuredContent; the call ran, so the model is told so.
    expect(out.bad).toMatchObject({ type: 'error-text' });
    const bad = String(out.bad?.value);
    expect(bad).toMatch(/^\[verification\] lists__count_items: .*does not match the output schema the server declares/);
    expect(bad).toContain('structuredContent.count');
    expect(bad).toContain('structuredContent.list');
    expect(bad).toMatch(/ran/);
    expect(String(out.missing?.value)).toMatch(/^\[verification\] lists__count_items: .*no structured content/);
    // An isError result carries no structured content by design: the tool's own failure, as before.
    expect(out.error).toEqual({ type: 'error-text', value: '[execution] lists__count_items: the list is gone' });
    expect(readFileSync(callsFile, 'utf8').trim().split('\n').sort()).toEqual(['bad', 'error', 'good', 'missing']);
    expect(m.tools().find((t) => t.originalName === 'count_items')?.outputSchema).toMatchObject({ required: ['count'] });
  });

  it('an output schema that is not an object schema is dropped with a warning; the tool and its results stay', async () => {
    const m = await connect({ lists: fixture('--tools=0', '--structured') });
    const info = m.tools().find((t) => t.originalName === 'odd_output');
    expect(info).toBeDefined();
    expect(info?.outputSchema).toBeUndefined();
    expect(m.events).toContainEqual({
      type: 'warning',
      server: 'lists',
      message: expect.stringMatching(/"odd_output".*output schema.*not an object schema.*not checked/),
    });
    const out = await callAll(m, { odd: { tool: 'lists__odd_output', input: {} } });
    expect(out.odd).toEqual({ type: 'text', value: 'odd' });
  });
});

// Both branches of the anyOf descend the same subtree: 2^depth evaluations (depth 18 took 2.3 s in the
// calling thread; depth 21, about 20 s).
const EXPONENTIAL = {
  type: 'object',
  $defs: {
    n: {
      anyOf: [
        { type: 'object', properties: { a: { $ref: '#/$defs/n' } }, required: ['zz'] },
        { type: 'object', properties: { a: { $ref: '#/$defs/n' } } },
      ],
    },
  },
  $ref: '#/$defs/n',
};
// A cheap schema that still goes to the worker: a `$ref` makes its cost unbounded in principle.
const INTEGER_N = { type: 'object', $defs: { int: { type: 'integer' } }, properties: { n: { $ref: '#/$defs/int' } } };
const nested = (depth: number): Record<string, unknown> => {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('MCP output checks against a hostile server', () => {
  it('an output schema past the depth limit is not used, with the reason', () => {
    let deep: Record<string, unknown> = { type: 'object' };
    for (let i = 0; i < 100; i++) deep = { type: 'object', properties: { a: deep } };
    expect(readMcpOutputSchema(deep)).toEqual({ problem: 'its output schema nests deeper than 64 levels' });
    expect(readMcpOutputSchema([{ type: 'object' }]).problem).toMatch(/not an object schema/);
    expect(readMcpOutputSchema(undefined)).toEqual({});
  });

  const info = (outputSchema: Record<string, unknown>): McpToolInfo => ({
    name: 'srv__tool',
    originalName: 'tool',
    server: 'srv',
    description: 'A tool.',
    inputSchema: normalizeMcpInputSchema({ type: 'object' }).schema,
    schemaFallback: false,
    outputSchema,
  });

  it('its regular expressions and pairwise checks are not run on its own results (they could block the host)', async () => {
    const definition = createMcpToolDefinition(
      info({
        type: 'object',
        properties: { s: { type: 'string', pattern: '^(a+)+$' }, xs: { type: 'array', uniqueItems: true } },
      }),
      async () => ({
        content: [{ type: 'text', text: 'ok' }],
        structuredContent: { s: `${'a'.repeat(30)}!`, xs: Array.from({ length: 50_000 }, (_, i) => i) },
      }),
    );
    const started = Date.now();
    const result = await definition.execute({}, { signal: new AbortController().signal } as never);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'ok' }] });
  });

  it('a check that would take exponential time is stopped at its deadline and fails at verification; the host stays responsive', async () => {
    const definition = createMcpToolDefinition(info(EXPONENTIAL), async () => ({ content: [], structuredContent: nested(21) }));
    // The event loop keeps turning while the check runs (it is not on this thread).
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const started = Date.now();
    try {
      await expect(definition.execute({}, { signal: new AbortController().signal } as never)).rejects.toMatchObject({
        name: 'ToolError',
        stage: 'verification',
        message: expect.stringMatching(/could not be checked .* within 2 s/),
      });
    } finally {
      clearInterval(ticker);
    }
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(MCP_SCHEMA_CHECK_TIMEOUT_MS - 100);
    expect(took).toBeLessThan(MCP_SCHEMA_CHECK_TIMEOUT_MS + 5_000);
    expect(ticks).toBeGreaterThanOrEqual(10);
    // A later result of a cheap schema is still checked (the stopped check took nothing else down).
    const next = createMcpToolDefinition(info(INTEGER_N), async () => ({
      content: [],
      structuredContent: { n: 'x' },
    }));
    await expect(next.execute({}, { signal: new AbortController().signal } as never)).rejects.toMatchObject({
      stage: 'verification',
      message: expect.stringMatching(/structuredContent\.n/),
    });
  });

  it('a cancelled call stops its running check at once, and a check queued behind a slow one gets its own deadline', async () => {
    const slow = createMcpToolDefinition(info(EXPONENTIAL), async () => ({ content: [], structuredContent: nested(21) }));
    const cheap = createMcpToolDefinition(info(INTEGER_N), async () => ({
      content: [{ type: 'text', text: 'fine' }],
      structuredContent: { n: 1 },
    }));
    const controller = new AbortController();
    const started = Date.now();
    const cancelled = slow.execute({}, { signal: controller.signal } as never);
    setTimeout(() => controller.abort(new Error('the person pressed stop')), 200);
    await expect(cancelled).rejects.toThrow('the person pressed stop');
    expect(Date.now() - started).toBeLessThan(MCP_SCHEMA_CHECK_TIMEOUT_MS);
    // Queued behind a check that runs into its deadline, the cheap one still passes.
    const both = await Promise.allSettled([
      slow.execute({}, { signal: new AbortController().signal } as never),
      cheap.execute({}, { signal: new AbortController().signal } as never),
    ]);
    expect(both[0]).toMatchObject({ status: 'rejected', reason: { stage: 'verification' } });
    expect(both[1]).toMatchObject({ status: 'fulfilled', value: { structuredContent: { n: 1 } } });
  });

  it("servers take turns for the worker: one server's checks that run into their deadline hold another's up by one check", async () => {
    const worker = new SchemaCheckWorker(require.resolve('@cfworker/json-schema'));
    const settled: string[] = [];
    const track = (name: string, p: Promise<{ kind: string }>) =>
      p.then((v) => {
        settled.push(`${name}: ${v.kind}`);
      });
    try {
      // Three slow checks of a hostile server are waiting or running when an honest server's check arrives.
      const slow = (i: number) =>
        track(`hostile ${i}`, worker.check(1, EXPONENTIAL, '2020-12', nested(24), { timeoutMs: 400, lane: 'hostile' }));
      const checks = [slow(1), slow(2), slow(3)];
      checks.push(track('honest', worker.check(2, INTEGER_N, '2020-12', { n: 1 }, { timeoutMs: 10_000, lane: 'honest' })));
      await Promise.all(checks);
      // First come, first served would make it wait for all three (hostile 1–3, then honest).
      expect(settled).toEqual(['hostile 1: timeout', 'honest: valid', 'hostile 2: timeout', 'hostile 3: timeout']);
      // Within one lane the order stays the arrival order.
      settled.length = 0;
      await Promise.all(
        [1, 2, 3].map((i) =>
          track(`same ${i}`, worker.check(2, INTEGER_N, '2020-12', { n: i }, { timeoutMs: 10_000, lane: 'x' })),
        ),
      );
      expect(settled).toEqual(['same 1: valid', 'same 2: valid', 'same 3: valid']);
    } finally {
      await worker.stopIdle();
    }
  });

  it("a tool's checks wait in its server's lane: an honest server's result is checked right after the running hostile one", async () => {
    const of = (server: string, outputSchema: Record<string, unknown>): McpToolInfo => ({
      ...info(outputSchema),
      name: `${server}__tool`,
      server,
    });
    const hostile = createMcpToolDefinition(of('hostile', EXPONENTIAL), async () => ({
      content: [],
      structuredContent: nested(24),
    }));
    const honest = createMcpToolDefinition(of('honest', INTEGER_N), async () => ({ content: [], structuredContent: { n: 1 } }));
    const settled: string[] = [];
    const run = (name: string, definition: typeof hostile) =>
      Promise.resolve(definition.execute({}, { signal: new AbortController().signal } as never)).then(
        () => settled.push(`${name}: ok`),
        (error: { stage?: string }) => settled.push(`${name}: ${error.stage}`),
      );
    // The hostile server's other tool, called once the first hostile check runs: its input check waits
    // in that server's lane, behind the server's own slow check.
    const checker = createMcpToolDefinition(
      { ...of('hostile', INTEGER_N), name: 'hostile__other', inputSchema: INTEGER_N },
      async () => ({ content: [] }),
    );
    const input = new Promise((resolve) => setTimeout(resolve, 200)).then(async () => {
      const verdict = await checker.validate({ n: 1 });
      settled.push(`input: ${verdict.success ? 'ok' : 'refused'}`);
    });
    await Promise.all([run('hostile 1', hostile), run('hostile 2', hostile), run('honest', honest), input]);
    expect(settled).toEqual(['hostile 1: verification', 'honest: ok', 'hostile 2: verification', 'input: ok']);
  });

  it('a worker that cannot load the validator answers "unavailable" (the caller then checks in its own thread), at once from then on', async () => {
    const broken = new SchemaCheckWorker('/nonexistent/json-schema.cjs');
    const first = await broken.check(1, { type: 'object' }, '2020-12', {}, { timeoutMs: 10_000 });
    expect(first).toMatchObject({ kind: 'unavailable', message: expect.stringMatching(/Cannot find module/) });
    const started = Date.now();
    expect(await broken.check(1, { type: 'object' }, '2020-12', {}, { timeoutMs: 10_000 })).toMatchObject({
      kind: 'unavailable',
    });
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('the worker keeps a bounded number of validators and rebuilds a dropped one from its schema', async () => {
    const worker = schemaCheckWorker()!;
    const schemaFor = (i: number) => ({ type: 'object', properties: { [`p${i}`]: { type: 'integer' } } });
    const check = (id: number, i: number, value: unknown) =>
      worker.check(id, schemaFor(i), '2020-12', value, { timeoutMs: 10_000 });
    const base = 1_000_000; // ids of their own, apart from the definitions' ids in this file
    expect(await check(base, 0, { p0: 'x' })).toMatchObject({ kind: 'invalid' });
    for (let i = 1; i <= MAX_WORKER_VALIDATORS; i++)
      expect(await check(base + i, i, { [`p${i}`]: 1 })).toEqual({ kind: 'valid' });
    // The first validator was dropped; its check still answers from its schema, invalid and valid alike.
    expect(await check(base, 0, { p0: 'y' })).toMatchObject({ kind: 'invalid', errors: expect.any(Array) });
    expect(await check(base, 0, { p0: 2 })).toEqual({ kind: 'valid' });
  });

  it('a check whose cost is bounded and small runs in the calling thread; a $ref or a large value goes to the worker', async () => {
    const worker = schemaCheckWorker()!;
    const run = async (schema: Record<string, unknown>, structuredContent: Record<string, unknown>) => {
      const before = worker.handedOver;
      const definition = createMcpToolDefinition(info(schema), async () => ({ content: [], structuredContent }));
      const outcome = await definition.execute({}, { signal: new AbortController().signal } as never).then(
        () => 'ok',
        (error: { stage: string }) => error.stage,
      );
      return { outcome, onWorker: worker.handedOver - before };
    };
    const plain = { type: 'object', properties: { n: { type: 'integer' } } };
    expect(await run(plain, { n: 1 })).toEqual({ outcome: 'ok', onWorker: 0 });
    expect(await run(plain, { n: 'x' })).toEqual({ outcome: 'verification', onWorker: 0 });
    expect(await run(INTEGER_N, { n: 1 })).toEqual({ outcome: 'ok', onWorker: 1 });
    const big = { n: 1, list: Array.from({ length: 5_000 }, (_, i) => i) };
    expect(await run(plain, big)).toEqual({ outcome: 'ok', onWorker: 1 });
  });

  it("the check's worker does not keep the host's process alive", async () => {
    const ports = () => process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length;
    const definition = createMcpToolDefinition(info(INTEGER_N), async () => ({
      content: [],
      structuredContent: { n: 2 },
    }));
    await definition.execute({}, { signal: new AbortController().signal } as never);
    // A ref'd worker is one more active MessagePort, gone when it stops (it kept `node` from exiting
    // when its 'message' listener was added after `unref()`).
    const running = ports();
    await schemaCheckWorker()?.stopIdle();
    expect(ports()).toBe(running);
  });

  it('structured content nested past what can be checked fails at verification, without a RangeError', async () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    const recursive = { type: 'object', properties: { a: { $ref: '#' } } };
    const definition = createMcpToolDefinition(info(recursive), async () => ({ content: [], structuredContent: deep }));
    await expect(definition.execute({}, { signal: new AbortController().signal } as never)).rejects.toMatchObject({
      name: 'ToolError',
      stage: 'verification',
      message: expect.stringMatching(/nests too deeply/),
    });
  });
});
