#!/usr/bin/env node
// Parameter experiments: NDCG@5 of several engine settings on every set, next to plain BM25, with the
// tuning sets and the held-out sets reported apart. Quality only (no latency): use run.mjs for the bench.
//
//   node bench/tool-search/tune.mjs '{}' '{"clauseMix":0}' '{"siblingShare":0}'
//
// Each argument is a JSON object of ToolIndexTuning overrides ('{}' = the defaults).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { aggregate, evaluate, findDataRoot, loadEngine, loadSets } from './lib.mjs';

// Parameters are chosen on TUNING_SETS only; the others are looked at once a choice is made.
export const TUNING_SETS = ['toolbench', 'toolret-apigen', 'toolret-toolink'];

const dataRoot = findDataRoot();
const sets = loadSets(dataRoot);
const engine = await loadEngine();
const configs = process.argv.slice(2).map((a) => JSON.parse(a));
if (configs.length === 0) configs.push({});

const base = {};
for (const set of sets) {
  const out = execFileSync(process.execPath, [join(dataRoot, 'bm25-baseline.mjs'), set.dir, '--json'], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  base[set.name] = JSON.parse(out).metrics['NDCG@5'];
}
const short = (n) => n.replace('toolret-', '').replace('-huggingface', '').slice(0, 9);
const ordered = [...sets.filter((s) => TUNING_SETS.includes(s.name)), ...sets.filter((s) => !TUNING_SETS.includes(s.name))];
console.log(`NDCG@5 − BM25 per set (tuning: ${TUNING_SETS.join(', ')} | held out: the rest)`);
console.log(`${'config'.padEnd(40)} ${ordered.map((s) => short(s.name).padStart(9)).join(' ')}  tune-mean held-mean`);
for (const tuning of configs) {
  const deltas = [];
  for (const set of ordered) {
    const index = engine.createToolIndex(set.catalog, { tuning });
    const per = set.queries.map((q) =>
      evaluate(
        q,
        index.search(q.query, { limit: 10 }).map((h) => h.name),
      ),
    );
    deltas.push(aggregate(set.queries, per).all['NDCG@5'] - base[set.name]);
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const t = deltas.slice(0, TUNING_SETS.length);
  const h = deltas.slice(TUNING_SETS.length);
  const f = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
  console.log(
    `${JSON.stringify(tuning).slice(0, 40).padEnd(40)} ${deltas.map((d) => f(d).padStart(9)).join(' ')}  ${f(mean(t)).padStart(9)} ${f(mean(h)).padStart(9)}`,
  );
}
