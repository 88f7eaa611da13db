#!/usr/bin/env node
// The search index when servers come up after the run began: N servers of 50 tools arrive at a
// catalogue of 8,000 tools (160 servers). Three ways to get the new index, side by side in one process:
//   one by one      replaceServer per server (what catalogIndex did before replaceServers)
//   replaceServers  one derivation for all of them (what it does now)
//   full build      createToolIndex over the whole new catalogue
// After one warm-up of each, the fastest of 7 runs each (a shared machine deschedules us; the minimum filters that out).
//
//   pnpm build && node bench/scale/arrivals.mjs [--servers=1,4,8,16]
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fixtureTool } from '../../tooling/test-utils/tool-catalog.mjs';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { createToolIndex } = await import(pathToFileURL(join(repoRoot, 'packages/discovery/dist/index.js')).href);
const arg = process.argv.find((a) => a.startsWith('--servers='));
const counts = (arg ? arg.slice('--servers='.length) : '1,4,8,16').split(',').map(Number);

const servers = Array.from({ length: 200 }, (_, i) => `s${i}`);
const toolsOf = (s) =>
  Array.from({ length: 50 }, (_, k) => {
    const t = fixtureTool(s, k);
    return { name: `${s}__${t.name}`, description: t.description, inputSchema: t.inputSchema, server: s };
  });
const up = servers.slice(0, 160).flatMap(toolsOf);
const base = createToolIndex(up);
const fastest = (f) => {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 7; r++) {
    const t = performance.now();
    f();
    best = Math.min(best, performance.now() - t);
  }
  return best;
};

// Warm-up: each way once, so that the first row is not the JIT's.
for (const [s, list] of [[servers[199], toolsOf(servers[199])]]) {
  base.replaceServer(s, list);
  base.replaceServers(new Map([[s, list]]));
  createToolIndex([...up, ...list]);
}

console.log('servers arriving | one by one ms | replaceServers ms | full build ms | one by one / replaceServers');
console.log('---:|---:|---:|---:|---:');
for (const n of counts) {
  const arriving = servers.slice(160, 160 + n);
  const lists = arriving.map((s) => [s, toolsOf(s)]);
  const oneByOne = fastest(() => {
    let index = base;
    for (const [s, list] of lists) index = index.replaceServer(s, list);
  });
  const batch = fastest(() => base.replaceServers(new Map(lists)));
  const full = fastest(() => createToolIndex([...up, ...lists.flatMap(([, list]) => list)]));
  console.log(`${n} | ${oneByOne.toFixed(1)} | ${batch.toFixed(1)} | ${full.toFixed(1)} | ${(oneByOne / batch).toFixed(1)}×`);
}
