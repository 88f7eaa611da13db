// The Anthropic search choice: our engine (createToolIndex) vs plain BM25, the stand-in for Anthropic's
// server-side BM25 (which cannot be called from here), on every bench-data set. Metrics and data sets
// are the tool-search benchmark's (bench/tool-search/lib.mjs), so both report the same numbers.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { aggregate, evaluate, loadSets } from '../tool-search/lib.mjs';
import { discovery } from './deps.mjs';

const KMAX = 10;

/** One row per data set: tools, queries, and the mean metrics of BM25 and of our engine. */
export function searchChoice(dataRoot) {
  const searchRows = [];
  for (const { name: set, dir, catalog, queries } of loadSets(dataRoot)) {
    const baseline = JSON.parse(
      execFileSync(process.execPath, [join(dataRoot, 'bm25-baseline.mjs'), dir, '--json'], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      }),
    );
    const index = discovery.createToolIndex(catalog);
    const perQuery = queries.map((q) =>
      evaluate(
        q,
        index.search(q.query, { limit: KMAX }).map((h) => h.name),
      ),
    );
    const ours = aggregate(queries, perQuery).all;
    searchRows.push({ set, tools: catalog.length, queries: queries.length, bm25: baseline.metrics, ours });
  }
  return searchRows;
}
