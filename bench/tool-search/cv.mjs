#!/usr/bin/env node
// Leave-one-set-out choice of ranking parameters: every candidate setting is scored on every set
// (NDCG@5 − plain BM25); for each set, the setting is CHOSEN on the other sets only (criterion: the
// worst training-set gain, ties by mean) and its gain on the left-out set is reported as held out.
// So no set's figure comes from a choice that saw it.
//
//   node bench/tool-search/cv.mjs                       # the built-in grid (below)
//   node bench/tool-search/cv.mjs '{}' '{"k1":0.9}'     # or these settings
//   node bench/tool-search/cv.mjs --data DIR '{}'       # other sets (lib.mjs, findData)
import { execFileSync } from 'node:child_process';
import { aggregate, evaluate, findData, loadEngine, loadSets } from './lib.mjs';

const data = findData();
const sets = loadSets(data);
const engine = await loadEngine();

/** The grid: one axis at a time around the defaults. */
function grid() {
  const out = [{}];
  for (const k1 of [0.9, 1.5]) out.push({ k1 });
  for (const w of [
    [3, 1, 1, 0.5, 0.5],
    [2, 1, 1.5, 0.5, 0.5],
    [2, 1, 1, 0.3, 0.5],
    [2, 1, 1, 0.8, 0.5],
    [2, 1, 1, 0.5, 0],
    [2, 1, 1, 0.5, 0.25],
    [2, 1, 1, 0.5, 1],
  ])
    out.push({ fieldWeights: w });
  for (const b of [
    [0.3, 0.5, 0.9, 0.75, 0.5],
    [0.5, 0.5, 0.5, 0.75, 0.5],
    [0.5, 0.5, 0.75, 0.75, 0.5],
    [0.5, 0.5, 0.9, 0.75, 0.75],
    [0.5, 0.5, 0.9, 0.75, 1],
  ])
    out.push({ fieldB: b });
  for (const x of [0.1, 0.3]) out.push({ nameCoverage: x });
  for (const x of [0.3, 0.7]) out.push({ clauseMix: x });
  for (const x of [0, 0.75, 1]) out.push({ contextClauses: x });
  for (const x of [0, 0.5, 2]) out.push({ commonWords: x });
  for (const x of [100, 400]) out.push({ commonWordsHalfLength: x });
  for (const x of [0.15, 0.5]) out.push({ siblingShare: x });
  for (const x of [0, 0.5, 1]) out.push({ delta: x });
  for (const x of [0, 0.2, 0.8]) out.push({ serverDocumentShare: x });
  for (const x of [1.2, 6]) out.push({ serverDocumentK1: x });
  for (const x of [0.5, 1]) out.push({ serverDocumentB: x });
  return out;
}

// Settings are the arguments that are not --data and its path.
const settings = process.argv
  .slice(2)
  .filter((a, i, all) => a !== '--data' && all[i - 1] !== '--data' && !a.startsWith('--data='));
const configs = settings.length > 0 ? settings.map((a) => JSON.parse(a)) : grid();
const base = {};
for (const set of sets) {
  const out = execFileSync(process.execPath, [data.baseline, set.dir, '--json'], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  base[set.name] = JSON.parse(out).metrics['NDCG@5'];
}
const short = (n) => n.replace('toolret-', '').replace('-huggingface', '').slice(0, 9);
const f = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

const table = []; // table[c][s] = NDCG@5 − BM25
console.log(`${'setting'.padEnd(44)} ${sets.map((s) => short(s.name).padStart(9)).join(' ')}      min     mean`);
for (const tuning of configs) {
  const row = sets.map((set) => {
    const index = engine.createToolIndex(set.catalog, { tuning });
    const per = set.queries.map((q) =>
      evaluate(
        q,
        index.search(q.query, { limit: 10 }).map((h) => h.name),
      ),
    );
    return aggregate(set.queries, per).all['NDCG@5'] - base[set.name];
  });
  table.push(row);
  console.log(
    `${JSON.stringify(tuning).slice(0, 44).padEnd(44)} ${row.map((d) => f(d).padStart(9)).join(' ')}  ${f(Math.min(...row))} ${f(mean(row))}`,
  );
}
console.log(
  '\nLeave one set out: setting chosen on the other five (max of their worst gain, then mean), gain on the left-out set',
);
for (let s = 0; s < sets.length; s++) {
  let best = 0;
  let key = [-Infinity, -Infinity];
  table.forEach((row, c) => {
    const train = row.filter((_, j) => j !== s);
    const k = [Math.min(...train), mean(train)];
    if (k[0] > key[0] + 1e-9 || (Math.abs(k[0] - key[0]) <= 1e-9 && k[1] > key[1])) {
      key = k;
      best = c;
    }
  });
  console.log(
    `  ${sets[s].name.padEnd(30)} chosen ${JSON.stringify(configs[best]).padEnd(40)} held-out ${f(table[best][s])} (defaults ${f(table[0][s])})`,
  );
}
