// Shared by run.mjs (the benchmark) and cv.mjs (parameter choice, leave one set out): engine loading, data sets, metrics.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The data lives beside the repository (<repo>/../shared/bench-data); a git worktree may sit deeper,
 * so the parents of the repo root are tried in turn. AIBUDDY_BENCH_DATA overrides.
 */
export function findDataRoot() {
  if (process.env.AIBUDDY_BENCH_DATA) return resolve(process.env.AIBUDDY_BENCH_DATA);
  for (let dir = repoRoot; ; dir = dirname(dir)) {
    const candidate = resolve(dir, '../shared/bench-data');
    if (existsSync(join(candidate, 'bm25-baseline.mjs'))) return candidate;
    if (dirname(dir) === dir) return resolve(repoRoot, '../shared/bench-data');
  }
}

/** Every sub-folder of dataRoot with catalog.json and queries.json, sorted, optionally filtered. */
export function loadSets(dataRoot, only) {
  const names = readdirSync(dataRoot, { withFileTypes: true })
    .filter(
      (e) =>
        e.isDirectory() &&
        existsSync(join(dataRoot, e.name, 'catalog.json')) &&
        existsSync(join(dataRoot, e.name, 'queries.json')),
    )
    .map((e) => e.name)
    .filter((n) => !only || only.includes(n))
    .sort();
  if (names.length === 0) throw new Error(`no data sets (catalog.json + queries.json) under ${dataRoot}`);
  return names.map((name) => ({
    name,
    dir: join(dataRoot, name),
    catalog: JSON.parse(readFileSync(join(dataRoot, name, 'catalog.json'), 'utf8')),
    queries: JSON.parse(readFileSync(join(dataRoot, name, 'queries.json'), 'utf8')),
  }));
}

/**
 * The engine: packages/discovery/src/search/*.ts transpiled with the repo's TypeScript (no build, always
 * the current source) into a folder inside the package, so its imports (stemmer, zod, ai) resolve; or,
 * with dist = true, packages/discovery/dist/search/index.js.
 */
export async function loadEngine(dist = false, ref = undefined) {
  if (dist) {
    const file = join(repoRoot, 'packages/discovery/dist/search/index.js');
    if (!existsSync(file)) throw new Error(`${file} not found: run pnpm --filter @aibuddy/discovery build first`);
    return import(pathToFileURL(file).href);
  }
  const require = createRequire(join(repoRoot, 'package.json'));
  const ts = require('typescript');
  const srcDir = join(repoRoot, 'packages/discovery/src/search');
  const cache = join(repoRoot, 'packages/discovery/node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const outDir = mkdtempSync(join(cache, 'tool-search-bench-'));
  process.on('exit', () => rmSync(outDir, { recursive: true, force: true }));
  // With a git ref (e.g. the previous engine's commit), the sources are read from that commit instead.
  const git = (...a) => execFileSync('git', ['-C', repoRoot, ...a], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const files = ref
    ? git('ls-tree', '--name-only', `${ref}:packages/discovery/src/search/`).split('\n').filter(Boolean)
    : readdirSync(srcDir);
  const read = (file) =>
    ref ? git('show', `${ref}:packages/discovery/src/search/${file}`) : readFileSync(join(srcDir, file), 'utf8');
  for (const file of files) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const out = ts.transpileModule(read(file), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: file,
    });
    writeFileSync(join(outDir, file.replace(/\.ts$/, '.js')), out.outputText);
  }
  writeFileSync(join(outDir, 'package.json'), '{"type":"module"}');
  return import(pathToFileURL(join(outDir, 'index.js')).href);
}

/** Same metric definitions as bm25-baseline.mjs: one slot per gold tool (gold_any: equivalents share a slot). */
export function evaluate(q, rankedNames) {
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

/** Mean metrics over queries, overall and per group: { all: {...}, groups: Map<group, {n, metrics}> }. */
export function aggregate(queries, perQuery) {
  const sum = (rows) => {
    const s = {};
    for (const m of rows) for (const [k, v] of Object.entries(m)) s[k] = (s[k] ?? 0) + v;
    return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v / rows.length]));
  };
  const byGroup = new Map();
  queries.forEach((q, i) => {
    if (q.group === undefined) return;
    if (!byGroup.has(q.group)) byGroup.set(q.group, []);
    byGroup.get(q.group).push(perQuery[i]);
  });
  return { all: sum(perQuery), groups: new Map([...byGroup].map(([g, rows]) => [g, { n: rows.length, metrics: sum(rows) }])) };
}

export const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

// 10,000 tools: every real tool of every set (names made unique per set), then replicas of them under
// new names and servers until the count is reached. Queries: all sets' queries, gold renamed likewise.
export function scaleCorpus(sets, size = 10_000) {
  const catalog = [];
  const queries = [];
  for (const { name: set, catalog: c, queries: qs } of sets) {
    const rename = (n) => `${set}__${n}`;
    for (const tool of c) catalog.push({ ...tool, name: rename(tool.name), server: `${set}/${tool.server}` });
    for (const q of qs)
      queries.push({ ...q, group: undefined, gold: q.gold.map(rename), gold_any: q.gold_any?.map((a) => a.map(rename)) });
  }
  const real = catalog.length;
  for (let i = 0; catalog.length < size; i++) {
    const tool = catalog[i % real];
    const copy = Math.floor(i / real) + 1;
    catalog.push({ ...tool, name: `r${copy}_${tool.name}`, server: `${tool.server}-replica${copy}` });
  }
  return { catalog: catalog.slice(0, size), queries };
}

/** Smallest and middle value of `values`. */
export function minMedian(values) {
  const s = [...values].sort((x, y) => x - y);
  return { min: s[0], median: s[s.length >> 1] };
}

/**
 * `builds` index builds of `catalog` by each of `engines`, alternating build by build so that all see
 * the same machine load: per engine, wall and CPU ms (min and median) and the size of the last index.
 */
export function alternatingBuilds(engines, catalog, builds, options = {}) {
  const runs = engines.map(() => ({ wall: [], cpu: [], size: 0 }));
  for (let i = 0; i < builds; i++) {
    engines.forEach((engine, k) => {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const index = engine.createToolIndex(catalog, options);
      const wall = performance.now() - t0;
      const c = process.cpuUsage(c0);
      const run = runs[k];
      run.wall.push(wall);
      run.cpu.push((c.user + c.system) / 1000);
      run.size = index.size;
    });
  }
  return runs.map((r) => ({ wall: minMedian(r.wall), cpu: minMedian(r.cpu), size: r.size }));
}
