#!/usr/bin/env node
// What confinement costs per command: `exec('true')` in each mode (bubblewrap, PID namespace,
// plain process group), with and without the git guard, next to a raw `child_process.spawn` of
// `bash -c true` measured in the same run (alternating), as medians and ratios.
//
//   pnpm build && node bench/exec-overhead/run.mjs [--runs 15] [--entries 15000]
//
// The workspace holds a git repository and --entries files in nested folders, so the git guard's
// two walks per command are part of the figure.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

const dist = (name) => new URL(`../../packages/${name}/dist/index.js`, import.meta.url).href;
const { createNodeSandbox } = await import(dist('sandbox-node'));

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const runs = opt('--runs', 15);
const entries = opt('--entries', 15_000);

const root = mkdtempSync(join(tmpdir(), 'aibuddy-bench-exec-'));
execFileSync('git', ['init', '-q', root]);
for (let i = 0; i < entries; i++) {
  const dir = join(root, `d${i % 50}`, `e${i % 7}`);
  if (i < 350) mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `f${i}.txt`), 'x');
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rawSpawn = () =>
  new Promise((done) => spawn('bash', ['-c', 'true'], { stdio: 'ignore', detached: true }).on('close', done));

const modes = [
  ['bubblewrap', { isolation: 'required' }],
  ['bubblewrap, no git guard', { isolation: 'required', protectGit: false }],
  ['pid-namespace', { isolation: 'off' }],
  ['pid-namespace, no git guard', { isolation: 'off', protectGit: false }],
  ['plain group, no git guard', { isolation: 'off', pidNamespace: false, protectGit: false }],
];
const rows = [];
for (const [name, config] of modes) {
  const sandbox = await createNodeSandbox({ type: 'node', root, ...config });
  await sandbox.exec('true'); // warm the probes
  const base = [];
  const mine = [];
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    await rawSpawn();
    base.push(performance.now() - t);
    t = performance.now();
    await sandbox.exec('true');
    mine.push(performance.now() - t);
  }
  const b = median(base);
  const m = median(mine);
  rows.push({
    mode: name,
    'exec(true) ms': m.toFixed(1),
    'raw spawn ms': b.toFixed(1),
    ratio: `${(m / b).toFixed(2)}x`,
    'added ms': (m - b).toFixed(1),
  });
}
console.log(`exec-overhead: median of ${runs} runs, workspace of ${entries} files with a git repository`);
console.table(rows);
rmSync(root, { recursive: true, force: true });
