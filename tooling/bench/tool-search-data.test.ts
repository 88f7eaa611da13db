// bench/tool-search measures catalogues other than the shared ones: a set folder, or a folder of sets,
// named with --data or AIBUDDY_BENCH_DATA, with the plain BM25 baseline found beside it (or named).
// Bad data ends the run with the file, the entry and the fix, never a stack trace or a wrong metric.
// Each case runs the bench's own code in a child process, as a user would (a bad set exits it).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const lib = join(root, 'bench/tool-search/lib.mjs');
const work = mkdtempSync(join(tmpdir(), 'aibuddy-bench-data-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const catalog = [
  { server: 'weather', name: 'get_forecast', description: 'Weather forecast for a city', inputSchema: { type: 'object' } },
  { server: 'mail', name: 'send_email', description: 'Send an email message to a recipient' },
];
const queries = [
  { id: 'q1', group: 'g', query: 'what is the weather forecast in Paris', gold: ['get_forecast'] },
  { id: 'q2', group: 'g', query: 'send an email to Ann', gold: ['send_email'] },
];

/** A set folder at `dir` (files as given). */
function writeSet(dir: string, c: unknown = catalog, q: unknown = queries): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'catalog.json'), JSON.stringify(c));
  writeFileSync(join(dir, 'queries.json'), JSON.stringify(q));
  return dir;
}

/**
 * A stand-in for ../shared/bench-data/bm25-baseline.mjs (not in the repository): the same command
 * line and JSON shape, fixed figures, and a mark of which one ran.
 */
function writeBaseline(path: string, mark: string): string {
  mkdirSync(dirname(path), { recursive: true });
  const metrics = { 'Recall@1': 0.5, 'Recall@5': 0.5, 'NDCG@5': 0.5, 'Hit@1': 0.5 };
  const out = { mark, metrics, by_group: { g: { n: 2, ...metrics } }, latency_ms: { p50: 0.1, p95: 0.1, index_build: 1 } };
  writeFileSync(path, `process.stdout.write(${JSON.stringify(JSON.stringify(out))});\n`);
  return path;
}

/** findData + loadSets in a child process: what it printed (JSON), or its exit code and stderr. */
function resolveData(args: string[], env: Record<string, string> = {}) {
  const script = `import { findData, loadSets } from ${JSON.stringify(lib)};
const d = findData(${JSON.stringify(args)});
const sets = loadSets(d);
console.log(JSON.stringify({ sets: sets.map((s) => [s.name, s.catalog.length, s.queries.length]), baseline: d.baseline }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: work,
    encoding: 'utf8',
    env: { ...process.env, AIBUDDY_BENCH_DATA: '', AIBUDDY_BENCH_BASELINE: '', ...env },
  });
  return { status: r.status, stderr: r.stderr, out: r.status === 0 ? JSON.parse(r.stdout) : undefined };
}

describe('bench/tool-search data', () => {
  it('takes one set folder, with the baseline beside it', () => {
    const base = writeBaseline(join(work, 'a', 'bm25-baseline.mjs'), 'a');
    writeSet(join(work, 'a', 'mine'));
    const r = resolveData(['--data', join(work, 'a', 'mine')]);
    expect(r.stderr).toBe('');
    expect(r.out).toEqual({ sets: [['mine', 2, 2]], baseline: base });
  });

  it('takes folders of sets (repeated --data, or AIBUDDY_BENCH_DATA), names clashes by their parent', () => {
    writeSet(join(work, 'b', 'tools'));
    writeSet(join(work, 'b', 'zeta'));
    mkdirSync(join(work, 'b', 'not-a-set'), { recursive: true });
    writeSet(join(work, 'c', 'tools'));
    const base = writeBaseline(join(work, 'named.mjs'), 'named');
    const r = resolveData(['--data', join(work, 'b'), '--data', join(work, 'c')], { AIBUDDY_BENCH_BASELINE: base });
    expect(r.out?.sets.map((s: unknown[]) => s[0])).toEqual(['b/tools', 'zeta', 'c/tools']);
    expect(r.out?.baseline).toBe(base);
    const viaEnv = resolveData([], { AIBUDDY_BENCH_DATA: join(work, 'c'), AIBUDDY_BENCH_BASELINE: base });
    expect(viaEnv.out?.sets).toEqual([['tools', 2, 2]]);
  });

  it.each([
    [
      'a gold tool missing from the catalogue',
      catalog,
      [{ query: 'x', gold: ['nope'] }],
      /queries\.json: query 0 .*names gold tool nope, which is not in catalog\.json/,
    ],
    ['a query that is not text', catalog, [{ query: 3, gold: ['send_email'] }], /queries\.json: at 0\.query: .*expected string/],
    ['a repeated tool name', [catalog[0], catalog[0]], queries, /catalog\.json: tool 1 repeats the name get_forecast/],
    ['a file that is not JSON', '{', queries, /catalog\.json: not JSON/],
  ])('ends with the file and entry for %s (exit 2, no stack trace)', (_what, c, q, message) => {
    const dir = writeSet(join(work, 'bad', String(Math.random()).slice(2)), c, q);
    if (c === '{') writeFileSync(join(dir, 'catalog.json'), '{');
    const r = resolveData(['--data', dir], { AIBUDDY_BENCH_BASELINE: writeBaseline(join(work, 'x.mjs'), 'x') });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('names the fix when no baseline is found, and when a folder holds no set', () => {
    const lone = writeSet(join(work, 'lone', 'deep', 'set'));
    // The bench's lib in a repository of its own, with no shared data beside it (as on a clean clone).
    const alone = join(work, 'repo', 'bench', 'tool-search', 'lib.mjs');
    mkdirSync(dirname(alone), { recursive: true });
    copyFileSync(lib, alone);
    const r0 = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { findData } from ${JSON.stringify(alone)}; findData(['--data', ${JSON.stringify(lone)}]);`,
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, AIBUDDY_BENCH_DATA: '', AIBUDDY_BENCH_BASELINE: '' },
      },
    );
    expect(r0.status).toBe(2);
    expect(r0.stderr).toMatch(
      /bm25-baseline\.mjs\) is not beside the sets nor in \.\.\/shared\/bench-data; set AIBUDDY_BENCH_BASELINE to its path/,
    );
    const empty = join(work, 'empty');
    mkdirSync(empty, { recursive: true });
    const r = resolveData(['--data', empty], { AIBUDDY_BENCH_BASELINE: writeBaseline(join(work, 'y.mjs'), 'y') });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/no set \(a folder with catalog\.json and queries\.json\) in or under/);
  });

  it('run.mjs measures a set of one’s own against the baseline found for it', () => {
    const dir = writeSet(join(work, 'own', 'tiny'));
    writeBaseline(join(work, 'own', 'bm25-baseline.mjs'), 'own');
    const out = execFileSync(
      process.execPath,
      [join(root, 'bench/tool-search/run.mjs'), '--data', dir, '--no-scale', '--no-fusion', '--json'],
      {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, AIBUDDY_BENCH_DATA: '', AIBUDDY_BENCH_BASELINE: '' },
        maxBuffer: 1 << 26,
      },
    );
    expect(out).toContain(`baseline: ${join(work, 'own', 'bm25-baseline.mjs')}`);
    const report = JSON.parse(out.slice(out.indexOf('\n{') + 1));
    // Both queries are easy: the engine ranks each gold tool first, against the stand-in's 0.5.
    expect(report.sets.tiny.engine.metrics['NDCG@5']).toBe(1);
    expect(report.sets.tiny.baseline.metrics['NDCG@5']).toBe(0.5);
  }, 60_000);
});
