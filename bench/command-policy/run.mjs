#!/usr/bin/env node
// What deciding whether a command needs confirmation costs, next to what running the cheapest
// command costs anyway: `classifyCommand` over the classifier's own table (about 600 command
// lines) and over 128 KiB hostile lines, against `bash -c true` spawned in the same run.
//
//   node bench/command-policy/run.mjs      (after `pnpm build`)
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shell = await import(join(root, 'packages/tools-shell/dist/index.js'));
const { HARMLESS, NEEDS_CONFIRMATION } = await import(join(root, 'packages/tools-shell/dist/classify-command.cases.js'));
const policy = shell.createCommandPolicy({ allow: shell.DEVELOPMENT_ALLOW_RULES });
const table = [...HARMLESS, ...NEEDS_CONFIRMATION];

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

// Warm up, then time every line of the table, several rounds.
for (const line of table) policy.assess(line);
const perLine = [];
for (let round = 0; round < 5; round++) {
  for (const line of table) {
    const t = performance.now();
    policy.assess(line);
    perLine.push(performance.now() - t);
  }
}

const size = 128 * 1024 - 16;
const hostile = {
  braces: `ls ${'{'.repeat(size)}`,
  brackets: `ls ${'['.repeat(size)}`,
  'nested $(': `echo ${'"$('.repeat(Math.floor(size / 3))}`,
  wrappers: `${'env '.repeat(size / 4)}rm -rf build`,
  pipes: `${'ls | '.repeat(Math.floor(size / 5))}sh`,
};
const hostileMs = {};
for (const [name, line] of Object.entries(hostile)) {
  const t = performance.now();
  policy.assess(line);
  hostileMs[name] = performance.now() - t;
}

// Baseline: spawning the cheapest command, which every execute call pays anyway.
const spawns = [];
for (let i = 0; i < 30; i++) {
  const t = performance.now();
  spawnSync('bash', ['-c', 'true']);
  spawns.push(performance.now() - t);
}
const spawnMedian = percentile(spawns, 50);
const p50 = percentile(perLine, 50);
const p99 = percentile(perLine, 99);

console.log(`command-policy: ${table.length} table lines × 5 rounds`);
console.log(
  `  classify + assess   p50 ${(p50 * 1000).toFixed(1)} µs   p99 ${(p99 * 1000).toFixed(1)} µs   max ${(Math.max(...perLine) * 1000).toFixed(1)} µs`,
);
console.log(`  baseline: spawn \`bash -c true\`   p50 ${(spawnMedian * 1000).toFixed(1)} µs`);
console.log(`  ratio p50 classify / spawn: ${(p50 / spawnMedian).toFixed(4)}   p99: ${(p99 / spawnMedian).toFixed(4)}`);
console.log('  128 KiB hostile lines (ms, and ratio to one spawn):');
for (const [name, ms] of Object.entries(hostileMs))
  console.log(`    ${name.padEnd(10)} ${ms.toFixed(1)} ms   ×${(ms / spawnMedian).toFixed(1)}`);
