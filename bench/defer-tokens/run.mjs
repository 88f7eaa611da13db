#!/usr/bin/env node
// Tool-definition tokens per request, with and without deferral, on each path of @aibuddy/defer,
// measured on the REQUEST BODIES the real AI SDK providers send to loopback Anthropic / OpenAI servers.
// Then: the Anthropic search choice (our engine vs plain BM25, the stand-in for Anthropic's
// server-side BM25, which cannot be called from here) on every bench-data set.
//
//   pnpm --filter @aibuddy/defer... build && node bench/defer-tokens/run.mjs [--json]
//
// Catalog: 7 core tools + 5 MCP servers x 20 tools (real RapidAPI endpoints from the toolbench set,
// 20 per server) = 107 tools; the 10/30 gate defers all 100 MCP tools (100 > 30).
// Tokens: tiktoken o200k_base over each tool definition's JSON exactly as found in the request body.
//   wire    = every definition in the request body
//   context = what the model is given: on native paths definitions with defer_loading are not loaded
//             (Anthropic and OpenAI load them only when a search references them); OpenAI namespaces
//             count their name + description. After a search, the definitions it loaded are added.//
// Parts: deps.mjs (what is measured with), catalog.mjs, wire-runs.mjs (the conversations), counts.mjs
// (token accounting), search-choice.mjs (engine vs BM25); this file runs them and prints the report.
import { findDataRoot } from '../tool-search/lib.mjs';
import { buildCatalog } from './catalog.mjs';
import { enc } from './deps.mjs';
import { searchChoice } from './search-choice.mjs';
import { runAnthropic, runOpenAI } from './wire-runs.mjs';

const dataRoot = findDataRoot();
const asJson = process.argv.includes('--json');
const catalog = () => buildCatalog(dataRoot);

const runs = [
  await runAnthropic(catalog(), 'Anthropic, no deferral (baseline)', { deferred: false }),
  await runAnthropic(catalog(), 'Anthropic native, our tool_search + tool_reference', {
    deferred: true,
    search: 'client',
    override: 'auto',
  }),
  await runAnthropic(catalog(), 'Anthropic native, server-side BM25', { deferred: true, search: 'bm25', override: 'auto' }),
  await runAnthropic(catalog(), 'Anthropic Haiku -> activeTools', {
    deferred: true,
    override: 'auto',
    modelId: 'claude-haiku-4-5',
  }),
  await runOpenAI(catalog(), 'OpenAI Responses, no deferral (baseline)', { deferred: false }),
  await runOpenAI(catalog(), 'OpenAI native (namespaces + hosted tool_search)', { deferred: true, override: 'auto' }),
  await runOpenAI(catalog(), 'OpenAI on a third-party URL -> activeTools', {
    deferred: true,
    override: 'auto',
    baseURLThirdParty: true,
  }),
];

const searchRows = searchChoice(dataRoot);

// ---------------------------------------------------------------- report
const base = { anthropic: runs[0].first.context, openai: runs[4].first.context };
if (asJson) {
  console.log(JSON.stringify({ runs, searchRows }, null, 2));
} else {
  const pct = (x, b) => `${(100 * (1 - x / b)).toFixed(1)}%`;
  console.log('Tool-definition tokens per request (tiktoken o200k_base), 7 core tools + 5 MCP servers x 20 tools');
  console.log('(request bodies captured at loopback servers; "context" = definitions the model is given)\n');
  console.log(
    'run'.padEnd(52) +
      'path'.padEnd(18) +
      'offered'.padStart(8) +
      'wire'.padStart(8) +
      'context'.padStart(9) +
      '  cut vs baseline' +
      '   after 1 search' +
      '  requests' +
      '  same tools every step',
  );
  for (const r of runs) {
    const b = base[r.api];
    const after = r.after && r.path !== 'none' ? `${r.after.context} (${pct(r.after.context, b)})` : '-';
    console.log(
      r.label.padEnd(52) +
        r.path.padEnd(18) +
        String(r.first.offered).padStart(8) +
        String(r.first.wire).padStart(8) +
        String(r.first.context).padStart(9) +
        (r.path === 'none' ? '  (baseline)      ' : `  ${pct(r.first.context, b).padStart(8)}        `) +
        after.padStart(17) +
        String(r.requests).padStart(10) +
        `  ${r.stable ? 'yes' : 'no (activeTools)'}`,
    );
  }
  console.log(
    '\nwire: every definition in the body (native paths send deferred ones too, flagged defer_loading).' +
      '\nafter 1 search: the second request, with the 3 found definitions loaded (native) or offered (activeTools);' +
      '\n  on activeTools the search result in the messages repeats those schemas once more.' +
      '\nrequests: model calls for "search, call the found tool, answer" (a server-side search saves one).',
  );
  console.log('\nAnthropic search choice: our engine (createToolIndex) vs plain BM25 (stand-in for Anthropic server-side BM25)');
  console.log(
    'set'.padEnd(16) +
      'tools'.padStart(6) +
      '  ' +
      ['Recall@1', 'Recall@5', 'NDCG@5', 'Hit@1'].map((m) => `${m} bm25/ours`.padStart(22)).join(''),
  );
  for (const row of searchRows) {
    console.log(
      row.set.padEnd(16) +
        String(row.tools).padStart(6) +
        '  ' +
        ['Recall@1', 'Recall@5', 'NDCG@5', 'Hit@1']
          .map((m) => `${row.bm25[m].toFixed(3)} / ${row.ours[m].toFixed(3)}`.padStart(22))
          .join(''),
    );
  }
}
enc.free();
