#!/usr/bin/env node
// Why a set resists lexical gains: for each gold tool of each query, does it share any content word
// (stemmed, stop words dropped) with the query, and how many other tools match the query's words at
// least as well (lexical twins: no word-based ranker can order them above each other except by chance).
//
//   node bench/tool-search/overlap.mjs [--data DIR]...
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { findData, loadSets, repoRoot } from './lib.mjs';

const require = createRequire(join(repoRoot, 'packages/discovery/package.json'));
const { stemmer } = await import(require.resolve('stemmer'));
const STOP = new Set(
  'a an and are as at be by can could do does for from has have how i in is it me my of on or our please the this to we what with you your'.split(
    ' ',
  ),
);
const words = (s) =>
  new Set(
    String(s ?? '')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 1 && !STOP.has(w))
      .map((w) => stemmer(w)),
  );
const schemaWords = (schema) => Object.keys(schema?.properties ?? {}).join(' ');
for (const set of loadSets(findData())) {
  const docs = set.catalog.map((t) => ({ name: t.name, w: words(`${t.name} ${t.description} ${schemaWords(t.inputSchema)}`) }));
  const byName = new Map(docs.map((d) => [d.name, d]));
  let slots = 0;
  let none = 0;
  let twinsSum = 0;
  let beaten = 0;
  for (const q of set.queries) {
    const qw = words(q.query);
    for (const g of q.gold) {
      const d = byName.get(g);
      if (!d) continue;
      slots++;
      const shared = [...qw].filter((w) => d.w.has(w));
      if (shared.length === 0) {
        none++;
        continue;
      }
      // Tools that contain every query word the gold tool contains (at least as much lexical evidence).
      let twins = 0;
      for (const o of docs) if (o !== d && shared.every((w) => o.w.has(w))) twins++;
      twinsSum += twins;
      if (twins >= 5) beaten++;
    }
  }
  console.log(
    `${set.name.padEnd(30)} gold slots ${String(slots).padStart(5)}; no shared content word ${((100 * none) / slots).toFixed(1).padStart(5)} %; ` +
      `≥ 5 other tools with all its shared words ${((100 * beaten) / slots).toFixed(1).padStart(5)} %`,
  );
}
