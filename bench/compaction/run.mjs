#!/usr/bin/env node
// Compaction benchmark, one command:
//
//   pnpm --filter "@aibuddy/compactor..." build && node bench/compaction/run.mjs [--json] [--iterations N]
//
// 1. Client latency of a 1 MB result: the time from a tool's execute resolving to the runtime's
//    `tool-finished` client event (the full result; `tool-result` follows when the model view is final), through generateText + createAiTools, WITH the compactor's hooks
//    vs WITHOUT any hooks (the baseline), interleaved in the same run. Target: p50 difference < 1 ms
//    (compaction stays off the client path). Also shown, for context: the time until the next
//    model request (which does wait for the compacted view) with and without.
// 2. Token-counting throughput on the same ~1 MB corpus (o200k_base): tiktoken (WASM, one shot),
//    the compactor's sliced tiktoken counter, js-tiktoken and gpt-tokenizer, side by side.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');
const compactorPkg = join(repoRoot, 'packages/compactor');
const req = createRequire(join(compactorPkg, 'package.json'));
const asJson = process.argv.includes('--json');
const iterArg = process.argv.indexOf('--iterations');
const ITERATIONS = iterArg > 0 ? Number(process.argv[iterArg + 1]) : 40;

for (const pkg of ['registry', 'runtime', 'compactor']) {
  if (!existsSync(join(repoRoot, 'packages', pkg, 'dist/index.js'))) {
    console.error(`missing packages/${pkg}/dist: run \`pnpm --filter "@aibuddy/compactor..." build\` first`);
    process.exit(1);
  }
}
const dist = (pkg) => import(pathToFileURL(join(repoRoot, 'packages', pkg, 'dist/index.js')).href);
/** Imports a package the way the compactor resolves it (same instance as its dist uses). */
const dep = (name) => import(pathToFileURL(req.resolve(name)).href);

const { defineTool, resolveToolSet } = await dist('registry');
const { createAiTools } = await dist('runtime');
const { createCompactor, createTokenCounter } = await dist('compactor');
const { generateText, stepCountIs } = await dep('ai');
const { MockLanguageModelV3 } = await dep('ai/test');

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);

// ---------------------------------------------------------------------------------------------
// 1. Client latency of a 1 MB result
// ---------------------------------------------------------------------------------------------
const ONE_MB = (() => {
  const lines = [];
  let size = 0;
  for (let i = 0; size < 1024 * 1024; i++) {
    const line = `${String(i).padStart(6, '0')} INFO request id=${(i * 2654435761) % 4294967296} path=/api/v1/items/${i % 997} status=200 duration_ms=${i % 250}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n').slice(0, 1024 * 1024);
})();

function scripted() {
  let step = 0;
  let requestAt = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      const current = step++;
      if (current === 1) requestAt = performance.now();
      const content =
        current === 0
          ? [{ type: 'tool-call', toolCallId: `call_${Math.random().toString(36).slice(2)}`, toolName: 'dump', input: '{}' }]
          : [{ type: 'text', text: 'done' }];
      return {
        content,
        finishReason: { unified: current === 0 ? 'tool-calls' : 'stop', raw: undefined },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
  return { model, nextRequestAt: () => requestAt };
}

const dataDir = mkdtempSync(join(tmpdir(), 'bench-compaction-'));
const counter = createTokenCounter();
const compactor = createCompactor({ dataDir, tokenCounter: counter });
let resolvedAt = 0;
const dump = defineTool({
  name: 'dump',
  description: 'Returns 1 MB of log.',
  inputSchema: { type: 'object', properties: {} },
  execute: async () => {
    await new Promise((r) => setImmediate(r));
    resolvedAt = performance.now();
    return ONE_MB;
  },
});
const set = await resolveToolSet({ configs: [{ key: 'logs', toolNames: ['dump'], create: () => [dump] }] });

async function once(withHooks) {
  let eventAt = 0;
  let compactedTokens;
  const tools = createAiTools(set, {
    taskId: 'bench',
    ...(withHooks ? { hooks: compactor.hooks } : {}),
    onEvent: (e) => {
      if (e.type === 'tool-finished') eventAt = performance.now();
    },
  });
  const { model, nextRequestAt } = scripted();
  const started = performance.now();
  await generateText({ model, tools, prompt: 'dump', stopWhen: stepCountIs(3) });
  if (withHooks) {
    await compactor.whenIdle();
  }
  return {
    client: eventAt - resolvedAt,
    nextRequest: nextRequestAt() - resolvedAt,
    total: performance.now() - started,
    compactedTokens,
  };
}

const runs = { with: [], without: [] };
for (let i = 0; i < 3; i++) {
  await once(true);
  await once(false);
}
for (let i = 0; i < ITERATIONS; i++) {
  // Interleaved, alternating which goes first, so machine load hits both alike.
  const order = i % 2 === 0 ? [true, false] : [false, true];
  for (const withHooks of order) runs[withHooks ? 'with' : 'without'].push(await once(withHooks));
}
let compactionEvent;
{
  const c = createCompactor({ dataDir, tokenCounter: counter, onCompaction: (e) => (compactionEvent = e) });
  await c.compact({
    toolCallId: 'probe',
    toolName: 'dump',
    definition: dump,
    input: {},
    output: ONE_MB,
    modelOutput: { type: 'text', value: ONE_MB },
    taskId: 'bench',
  });
}

const latency = {
  iterations: ITERATIONS,
  resultBytes: Buffer.byteLength(ONE_MB),
  originalTokens: compactionEvent?.originalTokens,
  compactedTokens: compactionEvent?.compactedTokens,
  clientEventP50: {
    withHooks: quantile(
      runs.with.map((r) => r.client),
      0.5,
    ),
    baseline: quantile(
      runs.without.map((r) => r.client),
      0.5,
    ),
  },
  clientEventP90: {
    withHooks: quantile(
      runs.with.map((r) => r.client),
      0.9,
    ),
    baseline: quantile(
      runs.without.map((r) => r.client),
      0.9,
    ),
  },
  nextModelRequestP50: {
    withHooks: quantile(
      runs.with.map((r) => r.nextRequest),
      0.5,
    ),
    baseline: quantile(
      runs.without.map((r) => r.nextRequest),
      0.5,
    ),
  },
};
latency.addedClientLatencyP50 = latency.clientEventP50.withHooks - latency.clientEventP50.baseline;

// ---------------------------------------------------------------------------------------------
// 2. Token-counting throughput
// ---------------------------------------------------------------------------------------------
const CORPUS = (() => {
  const parts = [];
  let size = 0;
  const code = 'export function add(a: number, b: number): number {\n  // Adds two numbers.\n  return a + b;\n}\n';
  const prose = 'The quick brown fox jumps over the lazy dog, while the compactor keeps the context small and the client fast. ';
  for (let i = 0; size < 1024 * 1024; i++) {
    const chunk =
      i % 3 === 0
        ? JSON.stringify({ id: i, path: `src/dir${i % 50}/file${i}.ts`, size: i * 37, tags: ['a', 'b'] }) + '\n'
        : i % 3 === 1
          ? code.replace('add', `add${i}`)
          : prose + `(${i}) ünïcödé 日本語 🚀\n`;
    parts.push(chunk);
    size += chunk.length;
  }
  return parts.join('');
})();
const corpusBytes = Buffer.byteLength(CORPUS);

async function measure(name, init, count, runsCount = 3) {
  const t0 = performance.now();
  const state = await init();
  const initMs = performance.now() - t0;
  let tokens = count(state, CORPUS); // warm-up
  const times = [];
  for (let i = 0; i < runsCount; i++) {
    const t = performance.now();
    tokens = count(state, CORPUS);
    times.push(performance.now() - t);
  }
  const ms = quantile(times, 0.5);
  return { name, tokens, initMs, ms, mbPerS: corpusBytes / 1024 / 1024 / (ms / 1000), tokensPerS: tokens / (ms / 1000) };
}

const { get_encoding } = await dep('tiktoken');
const jsTiktoken = await dep('js-tiktoken');
const gptTokenizer = await import(pathToFileURL(req.resolve('gpt-tokenizer/encoding/o200k_base')).href);

const throughput = [];
throughput.push(
  await measure(
    'tiktoken (WASM, one encode_ordinary call) — baseline',
    () => get_encoding('o200k_base'),
    (enc, text) => enc.encode_ordinary(text).length,
  ),
);
throughput.push(
  await measure(
    'tiktoken via the compactor counter (sliced, 4 KB slices)',
    () => createTokenCounter(),
    (c, text) => c.count(text),
  ),
);
throughput.push(
  await measure(
    'js-tiktoken (pure JS)',
    () => jsTiktoken.getEncoding('o200k_base'),
    (enc, text) => enc.encode(text).length,
  ),
);
throughput.push(
  await measure(
    'gpt-tokenizer (pure JS, countTokens)',
    () => gptTokenizer,
    (m, text) => m.countTokens(text),
  ),
);

await compactor.close();
counter.free();
rmSync(dataDir, { recursive: true, force: true });

if (asJson) {
  console.log(JSON.stringify({ latency, throughput, corpusBytes }, null, 2));
} else {
  console.log(`Compaction benchmark — node ${process.version}, ${ITERATIONS} interleaved runs each\n`);
  console.log(
    `1. Returning a ${(latency.resultBytes / 1024 / 1024).toFixed(2)} MB result (${latency.originalTokens} tokens → ${latency.compactedTokens} compacted) to the client`,
  );
  console.log('   execute resolved → client `tool-finished` event    with compactor hooks   baseline (no hooks)');
  console.log(
    `   p50                                                 ${fmt(latency.clientEventP50.withHooks).padEnd(22)} ${fmt(latency.clientEventP50.baseline)}`,
  );
  console.log(
    `   p90                                                 ${fmt(latency.clientEventP90.withHooks).padEnd(22)} ${fmt(latency.clientEventP90.baseline)}`,
  );
  console.log(
    `   added by compaction at p50: ${fmt(latency.addedClientLatencyP50)} (target < 1 ms) → ${latency.addedClientLatencyP50 < 1 ? 'PASS' : 'FAIL'}`,
  );
  console.log(
    `   for context, execute resolved → next model request p50: ${fmt(latency.nextModelRequestP50.withHooks)} with hooks vs ${fmt(latency.nextModelRequestP50.baseline)} baseline`,
  );
  console.log('   (the next request waits for the compacted view by design; the client does not)\n');
  console.log(
    `2. Token counting, o200k_base, ${(corpusBytes / 1024 / 1024).toFixed(2)} MB corpus (JSON lines, code, prose with unicode), median of 3`,
  );
  const base = throughput[0];
  for (const r of throughput) {
    console.log(
      `   ${r.name.padEnd(58)} ${String(r.tokens).padStart(8)} tokens  ${r.ms.toFixed(0).padStart(6)} ms  ${r.mbPerS.toFixed(2).padStart(6)} MB/s  ${(base.ms / r.ms).toFixed(2)}× baseline  (init ${r.initMs.toFixed(0)} ms)`,
    );
  }
}
