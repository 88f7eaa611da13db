// Shared by run.mjs (the benchmark) and cv.mjs (parameter choice, leave one set out): engine loading, data sets, metrics.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The default data: ../shared/bench-data beside the repository; a git worktree may sit deeper, so the
 * parents of the repo root are tried in turn. AIBUDDY_BENCH_DATA overrides (see {@link findData}).
 */
export function findDataRoot() {
  if (process.env.AIBUDDY_BENCH_DATA) return resolve(process.env.AIBUDDY_BENCH_DATA.split(delimiter)[0]);
  return sharedDataRoot();
}

/** ../shared/bench-data beside the repository (or a parent of it), whatever AIBUDDY_BENCH_DATA says. */
function sharedDataRoot() {
  for (let dir = repoRoot; ; dir = dirname(dir)) {
    const candidate = resolve(dir, '../shared/bench-data');
    if (existsSync(join(candidate, BASELINE))) return candidate;
    if (dirname(dir) === dir) return resolve(repoRoot, '../shared/bench-data');
  }
}

const BASELINE = 'bm25-baseline.mjs';

/** Bad data is the user's to fix, not a crash of the bench: the message and the fix, exit code 2. */
function fail(message) {
  console.error(`bench/tool-search: ${message}`);
  process.exit(2);
}
const isSet = (dir) => existsSync(join(dir, 'catalog.json')) && existsSync(join(dir, 'queries.json'));

/**
 * Where the sets come from, and the plain BM25 baseline to compare with. Sources: `--data PATH`
 * (repeatable) on the command line, else AIBUDDY_BENCH_DATA (paths joined by the platform's path
 * delimiter), else {@link findDataRoot}. A folder holding catalog.json and queries.json is one set;
 * any other folder gives its sub-folders that are sets, so a catalogue of your own is measured the
 * same way as the shared ones. The baseline is AIBUDDY_BENCH_BASELINE, else bm25-baseline.mjs in a
 * source folder or its parent, else the one of the shared data.
 * @returns {{ sources: string[], sets: { name: string, dir: string }[], baseline: string }}
 */
export function findData(argv = process.argv.slice(2)) {
  const named = [];
  argv.forEach((a, i) => {
    if (a === '--data' && argv[i + 1] !== undefined) named.push(argv[i + 1]);
    else if (a.startsWith('--data=')) named.push(a.slice('--data='.length));
  });
  const sources = (
    named.length > 0 ? named : process.env.AIBUDDY_BENCH_DATA ? process.env.AIBUDDY_BENCH_DATA.split(delimiter) : [findDataRoot()]
  )
    .filter(Boolean)
    .map((p) => resolve(p));
  return { sources, sets: setsIn(sources), baseline: findBaseline(sources) };
}

/** The sets in or under `sources` (see {@link findData}). */
function setsIn(sources) {
  const dirs = [];
  for (const source of sources) {
    if (!existsSync(source)) fail(`data: ${source} does not exist (give a set folder, or a folder of sets, with --data)`);
    if (isSet(source)) dirs.push(source);
    else
      for (const e of readdirSync(source, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name)))
        if (e.isDirectory() && isSet(join(source, e.name))) dirs.push(join(source, e.name));
  }
  if (dirs.length === 0) fail(`data: no set (a folder with catalog.json and queries.json) in or under ${sources.join(', ')}`);
  // Set names are folder names; two sources may both have a "tools" folder, so a clash takes the parent's name too.
  const base = dirs.map((d) => basename(d));
  return dirs.map((dir, i) => ({
    name: base.indexOf(base[i]) === base.lastIndexOf(base[i]) ? base[i] : `${basename(dirname(dir))}/${base[i]}`,
    dir,
  }));
}

/** The plain BM25 baseline script (see {@link findData}); when there is none, exits naming the fix. */
function findBaseline(sources) {
  const env = process.env.AIBUDDY_BENCH_BASELINE;
  if (env) {
    if (!existsSync(env)) fail(`data: AIBUDDY_BENCH_BASELINE=${env} does not exist`);
    return resolve(env);
  }
  const candidates = [
    ...sources.flatMap((s) => [join(s, BASELINE), join(dirname(s), BASELINE)]),
    join(sharedDataRoot(), BASELINE),
  ];
  const found = candidates.find((c) => existsSync(c));
  if (found) return found;
  fail(
    `data: the plain BM25 baseline (${BASELINE}) is not beside the sets nor in ../shared/bench-data; set AIBUDDY_BENCH_BASELINE to its path`,
  );
}

/**
 * The sets, read and checked: `data` is what {@link findData} returned, or a folder of sets (or one
 * set) as a path. `only` keeps the sets of those names. A malformed file, or a gold tool missing from
 * its catalogue, is an error naming the file and the entry (a silently wrong metric is worse).
 */
export function loadSets(data, only) {
  // A path needs no baseline: the sets alone are read (bench/defer-tokens).
  const found = typeof data === 'string' ? setsIn([resolve(data)]) : data.sets;
  const wanted = only ? found.filter((s) => only.includes(s.name)) : found;
  if (wanted.length === 0) fail(`data: no set named ${only.join(', ')}; there are ${found.map((s) => s.name).join(', ')}`);
  return wanted.map(({ name, dir }) => {
    const catalog = readChecked(join(dir, 'catalog.json'), setSchemas().catalog);
    const queries = readChecked(join(dir, 'queries.json'), setSchemas().queries);
    const names = new Set();
    catalog.forEach((t, i) => {
      if (names.has(t.name)) fail(`${join(dir, 'catalog.json')}: tool ${i} repeats the name ${t.name}`);
      names.add(t.name);
    });
    queries.forEach((q, i) => {
      const missing = (q.gold_any?.flat() ?? q.gold).find((g) => !names.has(g));
      if (missing !== undefined)
        fail(`${join(dir, 'queries.json')}: query ${i} (${q.id}) names gold tool ${missing}, which is not in catalog.json`);
    });
    return { name, dir, catalog, queries };
  });
}

let schemas;
/** The two files' shapes (bench-data/README.md), with zod from the discovery package's dependencies. */
function setSchemas() {
  if (schemas) return schemas;
  const { z } = createRequire(join(repoRoot, 'packages/discovery/package.json'))('zod');
  const name = z.string().min(1);
  schemas = {
    catalog: z.array(
      z.looseObject({
        server: z.string().optional(),
        name,
        description: z.string().optional(),
        inputSchema: z.record(z.string(), z.unknown()).optional(),
      }),
    ),
    queries: z.array(
      z.looseObject({
        id: z.union([z.string(), z.number()]).optional(),
        group: z.string().optional(),
        query: z.string(),
        gold: z.array(name).min(1),
        gold_any: z.array(z.array(name).min(1)).optional(),
      }),
    ),
  };
  return schemas;
}

function readChecked(file, schema) {
  let value;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    fail(`${file}: not JSON (${error.message})`);
  }
  const r = schema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0];
    fail(`${file}: at ${issue.path.join('.') || 'the top'}: ${issue.message} (see bench-data/README.md for the format)`);
  }
  return r.data;
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
