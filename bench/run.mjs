#!/usr/bin/env node
// Runs the benchmarks, one after the other (never in parallel: each reports ratios against a
// baseline from the same run, and these machines are small and shared).
//
//   pnpm bench                 # build, then every benchmark
//   pnpm bench tool-search     # build, then only the named ones
//
// Each benchmark is also runnable on its own: node bench/<name>/run.mjs (see its header).
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const all = readdirSync(here, { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(here, e.name, 'run.mjs')))
  .map((e) => e.name)
  .sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((n) => !all.includes(n));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${all.join(', ')}`);
  process.exit(2);
}

const build = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

let failed = 0;
for (const name of wanted.length > 0 ? wanted : all) {
  console.log(`\n=== bench/${name} ===`);
  const run = spawnSync(process.execPath, [join(here, name, 'run.mjs')], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
