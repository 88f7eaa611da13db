#!/usr/bin/env node
// Benchmark of the tool_search engine (`createToolIndex` from @aibuddy/discovery) against the plain BM25
// baseline (../shared/bench-data/bm25-baseline.mjs), side by side, on every data set, plus a 10,000-tool
// scale test.
//
//   node bench/tool-search/run.mjs [--dist] [--sets toolbench,toolret-apigen] [--no-scale] [--json]
//
// The engine is loaded from packages/discovery/src/search/*.ts, transpiled on the fly with the repo's
// TypeScript into a temp folder (no package build needed, so the bench always measures the current
// source). `--dist` imports packages/discovery/dist/search/index.js instead (after
// `pnpm --filter @aibuddy/discovery build`).
// Data: AIBUDDY_BENCH_DATA, else <repo>/../shared/bench-data; every sub-folder with catalog.json and
// queries.json is a set. AIBUDDY_TUNING='{"coverage":0.5}' overrides ranking parameters (experiments only).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');
const args = process.argv.slice(2);
const has = (flag) => args.includes(flag);
const opt = (flag) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
// The data lives beside the repository (<repo>/../shared/bench-data); a git worktree may sit deeper, so
// the parents of the repo root are tried in turn.
function findDataRoot() {
  if (process.env.AIBUDDY_BENCH_DATA) return resolve(process.env.AIBUDDY_BENCH_DATA);
  for (let dir = repoRoot; ; dir = dirname(dir)) {
    const candidate = resolve(dir, '../shared/bench-data');
    if (existsSync(join(candidate, 'bm25-baseline.mjs'))) return candidate;
    if (dirname(dir) === dir) return resolve(repoRoot, '../shared/bench-data');
  }
}
const dataRoot = findDataRoot();
const baselineScript = join(dataRoot, 'bm25-baseline.mjs');
const tuning = process.env.AIBUDDY_TUNING ? JSON.parse(process.env.AIBUDDY_TUNING) : {};
const KMAX = 10;
const SCALE_TOOLS = 10_000;

async function loadEngine() {
  if (has('--dist')) {
    const file = join(repoRoot, 'packages/discovery/dist/search/index.js');
    if (!existsSync(file)) throw new Error(`${file} not found: run pnpm --filter @aibuddy/discovery build first`);
    return import(pathToFileURL(file).href);
  }
  const require = createRequire(join(repoRoot, 'package.json'));
  const ts = require('typescript');
  const srcDir = join(repoRoot, 'packages/discovery/src/search');
  // Inside the package, so that the engine's imports (stemmer, zod, ai) resolve from its node_modules.
  const cache = join(repoRoot, 'packages/discovery/node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const outDir = mkdtempSync(join(cache, 'tool-search-bench-'));
  process.on('exit', () => rmSync(outDir, { recursive: true, force: true }));
  for (const file of readdirSync(srcDir)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const out = ts.transpileModule(readFileSync(join(srcDir, file), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: file,
    });
    writeFileSync(join(outDir, file.replace(/\.ts$/, '.js')), out.outputText);
  }
  writeFileSync(join(outDir, 'package.json'), '{"type":"module"}');
  return import(pathToFileURL(join(outDir, 'index.js')).href);
}

// Same metric definitions as bm25-baseline.mjs: one slot per gold tool (gold_any: equivalents share a slot).
function evaluate(q, rankedNames) {
  const slots = (q.gold_any ?? q.gold.map((g) => [g])).map((alts) => new Set(alts));
  const satisfiedAt = new Array(slots.length).fill(Infinity);
  let dcg5 = 0;
  rankedNames.forEach((name, r) => {
    for (let s = 0; s < slots.length; s++) {
      if (satisfiedAt[s] === Infinity && slots[s].has(name)) {
        satisfiedAt[s] = r;
        if (r < 5) dcg5 += 1 / Math.log2(r + 2);
        break;
      }
    }
  });
  let idcg5 = 0;
  for (let r = 0; r < Math.min(5, slots.length); r++) idcg5 += 1 / Math.log2(r + 2);
  const recall = (k) => satisfiedAt.filter((r) => r < k).length / slots.length;
  return {
    'Recall@1': recall(1),
    'Recall@5': recall(5),
    'NDCG@5': dcg5 / idcg5,
    'Hit@1': rankedNames.length && slots.some((s) => s.has(rankedNames[0])) ? 1 : 0,
  };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

function runEngine(engine, catalog, queries) {
  const t0 = performance.now();
  const index = engine.createToolIndex(catalog, { tuning });
  const buildMs = performance.now() - t0;
  for (const q of queries.slice(0, 20)) index.search(q.query, { limit: KMAX }); // JIT warm-up, as the baseline
  const sums = {};
  const lat = [];
  for (const q of queries) {
    const s = performance.now();
    const hits = index.search(q.query, { limit: KMAX });
    lat.push(performance.now() - s);
    for (const [k, v] of Object.entries(evaluate(q, hits.map((h) => h.name)))) sums[k] = (sums[k] ?? 0) + v;
  }
  // Noise-robust latency: each query's fastest of 3 more runs. On a shared machine a single timing
  // often includes milliseconds in which the process was descheduled; the minimum filters that out.
  const best = lat.slice();
  for (let r = 0; r < 3; r++) {
    queries.forEach((q, i) => {
      const s = performance.now();
      index.search(q.query, { limit: KMAX });
      best[i] = Math.min(best[i], performance.now() - s);
    });
  }
  lat.sort((a, b) => a - b);
  best.sort((a, b) => a - b);
  const metrics = Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, v / queries.length]));
  return { metrics, p50: pct(lat, 0.5), p95: pct(lat, 0.95), buildMs, minOf4: { p50: pct(best, 0.5), p95: pct(best, 0.95) } };
}

function runBaseline(dir) {
  const out = execFileSync(process.execPath, [baselineScript, dir, '--json'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const r = JSON.parse(out);
  return { metrics: r.metrics, p50: r.latency_ms.p50, p95: r.latency_ms.p95, buildMs: r.latency_ms.index_build };
}

// 10,000 tools: every real tool of every set (names made unique per set), then replicas of them under
// new names and servers until the count is reached. Queries: all sets' queries, gold renamed likewise.
function scaleCorpus(sets) {
  const catalog = [];
  const queries = [];
  for (const { name: set, catalog: c, queries: qs } of sets) {
    const rename = (n) => `${set}__${n}`;
    for (const tool of c) catalog.push({ ...tool, name: rename(tool.name), server: `${set}/${tool.server}` });
    for (const q of qs) queries.push({ ...q, gold: q.gold.map(rename), gold_any: q.gold_any?.map((a) => a.map(rename)) });
  }
  const real = catalog.length;
  for (let i = 0; catalog.length < SCALE_TOOLS; i++) {
    const tool = catalog[i % real];
    const copy = Math.floor(i / real) + 1;
    catalog.push({ ...tool, name: `r${copy}_${tool.name}`, server: `${tool.server}-replica${copy}` });
  }
  return { catalog: catalog.slice(0, SCALE_TOOLS), queries };
}

const fmt = (x, d = 3) => (x === undefined ? '-' : x.toFixed(d));
const METRICS = ['Recall@1', 'Recall@5', 'NDCG@5', 'Hit@1'];

function printRow(label, r) {
  console.log(
    `  ${label.padEnd(9)} ${METRICS.map((m) => fmt(r.metrics[m]).padStart(8)).join(' ')}  ` +
      `${fmt(r.p50).padStart(7)} ${fmt(r.p95).padStart(7)} ${fmt(r.buildMs, 1).padStart(9)}`,
  );
}

// Build time again, after warm-up: the first build also pays for JIT compilation. Median of 5, wall and
// CPU. Also the first searches on each fresh index, in this order (the set's first query, a query with
// typos, a regex), since structures built on first use (typo tables, regex text) make them slower than later ones.
const FIRST_QUERIES = [
  ['query #1', (queries) => queries[0].query, {}],
  ['typo', () => 'wether forcast for a citty', {}],
  ['regex', () => '(?i)get.*weather', { regex: true }],
];

function warmBuild(engine, catalog, queries) {
  const builds = [];
  const cpuBuilds = [];
  const first = FIRST_QUERIES.map(() => []);
  for (let i = 0; i < 5; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const index = engine.createToolIndex(catalog, { tuning });
    builds.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpuBuilds.push((c.user + c.system) / 1000);
    FIRST_QUERIES.forEach(([, query, options], k) => {
      const s = performance.now();
      index.search(query(queries), { limit: KMAX, ...options });
      first[k].push(performance.now() - s);
    });
  }
  const median = (a) => a.sort((x, y) => x - y)[2];
  return {
    wall: median(builds),
    cpu: median(cpuBuilds),
    firstQueryMs: Object.fromEntries(FIRST_QUERIES.map(([label], k) => [label, median(first[k])])),
  };
}

function printBuild(mine, warm) {
  console.log(`  engine index build: first ${fmt(mine.buildMs, 1)} ms (cold JIT); warm, median of 5: ${fmt(warm.wall, 1)} ms wall, ${fmt(warm.cpu, 1)} ms CPU`);
  const first = Object.entries(warm.firstQueryMs).map(([label, ms]) => `${label} ${fmt(ms, 2)} ms`);
  console.log(`  first searches on a fresh index, in order (median of 5): ${first.join(', ')}`);
}

function printMinOf4(r) {
  console.log(`  engine latency, fastest of 4 runs per query: p50 ${fmt(r.minOf4.p50)} ms, p95 ${fmt(r.minOf4.p95)} ms`);
}

function printHeader(title) {
  console.log(`\n${title}`);
  console.log(`  ${''.padEnd(9)} ${METRICS.map((m) => m.padStart(8)).join(' ')}  ${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)} ${'build ms'.padStart(9)}`);
}

async function main() {
  const engine = await loadEngine();
  const only = opt('--sets')?.split(',');
  const setNames = readdirSync(dataRoot, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dataRoot, e.name, 'catalog.json')) && existsSync(join(dataRoot, e.name, 'queries.json')))
    .map((e) => e.name)
    .filter((n) => !only || only.includes(n))
    .sort();
  if (setNames.length === 0) throw new Error(`no data sets (catalog.json + queries.json) under ${dataRoot}`);
  const sets = setNames.map((name) => ({
    name,
    dir: join(dataRoot, name),
    catalog: JSON.parse(readFileSync(join(dataRoot, name, 'catalog.json'), 'utf8')),
    queries: JSON.parse(readFileSync(join(dataRoot, name, 'queries.json'), 'utf8')),
  }));
  const report = { dataRoot, engine: has('--dist') ? 'dist' : 'src (transpiled)', tuning, sets: {} };
  console.log(`tool_search engine vs plain BM25 — data ${dataRoot}; engine from ${report.engine}; top ${KMAX} retrieved`);
  // Latencies are wall-clock: on a busy machine they include time the process was not running.
  const load = loadavg()[0];
  report.loadAverage = load;
  console.log(`machine: ${cpus().length} cores, load average ${load.toFixed(2)} at start${load > cpus().length ? ' (busy: latencies are inflated, compare ratios)' : ''}`);
  for (const set of sets) {
    const mine = runEngine(engine, set.catalog, set.queries);
    const warm = warmBuild(engine, set.catalog, set.queries);
    const base = runBaseline(set.dir);
    report.sets[set.name] = {
      tools: set.catalog.length,
      queries: set.queries.length,
      engine: mine,
      warmBuildMedianMs: warm.wall,
      warmBuildCpuMedianMs: warm.cpu,
      firstQueryMs: warm.firstQueryMs,
      baseline: base,
    };
    printHeader(`${set.name}: ${set.catalog.length} tools, ${set.queries.length} queries`);
    printRow('engine', mine);
    printRow('bm25', base);
    printMinOf4(mine);
    printBuild(mine, warm);
    const delta = { metrics: Object.fromEntries(METRICS.map((m) => [m, mine.metrics[m] - base.metrics[m]])) };
    console.log(`  ${'Δ'.padEnd(9)} ${METRICS.map((m) => (delta.metrics[m] >= 0 ? '+' : '') + fmt(delta.metrics[m])).map((s) => s.padStart(8)).join(' ')}`);
  }
  if (!has('--no-scale')) {
    const { catalog, queries } = scaleCorpus(sets);
    const mine = runEngine(engine, catalog, queries);
    const dir = mkdtempSync(join(tmpdir(), 'aibuddy-tool-search-scale-'));
    let base;
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'catalog.json'), JSON.stringify(catalog));
      writeFileSync(join(dir, 'queries.json'), JSON.stringify(queries));
      base = runBaseline(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const warm = warmBuild(engine, catalog, queries);
    report.scale = { tools: catalog.length, queries: queries.length, engine: mine, warmBuildMedianMs: warm.wall, warmBuildCpuMedianMs: warm.cpu, firstQueryMs: warm.firstQueryMs, baseline: base };
    printHeader(`scale: ${catalog.length} tools (all sets + replicas), ${queries.length} queries`);
    printRow('engine', mine);
    printRow('bm25', base);
    printMinOf4(mine);
    printBuild(mine, warm);
  }
  console.log('\nMetrics as in bm25-baseline.mjs: one slot per gold tool; Recall@k = slots in top k / slots; NDCG@5 binary gain; Hit@1 = top result is gold.');
  if (has('--json')) console.log(JSON.stringify(report, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
