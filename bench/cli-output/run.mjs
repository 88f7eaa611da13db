#!/usr/bin/env node
// A command writing one byte at a time through the CLI with --events: size of the event log, number
// of tool-output events and peak RSS of the CLI process, for this checkout and for a baseline
// checkout (default: the `main` branch) side by side in the same run.
//
//   pnpm build && node bench/cli-output/run.mjs [--seconds 60] [--before-ref main] [--before-cli PATH]
//
// The baseline is `git archive <ref>` extracted to a temp folder (reused across runs, keyed by
// commit), sharing this checkout's node_modules, built with tsc; or --before-cli PATH to an
// already built `apps/agent/dist/cli.js`. Peak RSS is VmHWM of the CLI process, read from /proc
// until it exits. The command is a node script inside the sandbox that writes one byte every
// 100 µs for --seconds seconds.
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = dirname(dirname(here));
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const seconds = Number(opt('--seconds', '60'));
const beforeRef = opt('--before-ref', 'main');

// One byte per write, 100 µs apart (busy wait, so every write is its own pipe read on the host):
// about 10,000 writes a second, the pattern of the issue's `printf x; sleep 0.0001` loop.
const writer = `node -e 'const fs = require("fs"); const end = Date.now() + ${seconds * 1000}; let n = 0; while (Date.now() < end) { fs.writeSync(1, "x"); n++; const t = process.hrtime.bigint(); while (process.hrtime.bigint() - t < 100000n); } fs.writeSync(2, "wrote " + n + " bytes\\n");'`;

/** Builds (once) the baseline checkout and returns its cli.js. */
function baselineCli() {
  const given = opt('--before-cli', undefined);
  if (given) return given;
  const commit = execFileSync('git', ['rev-parse', beforeRef], { cwd: repo, encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `aibuddy-bench-baseline-${commit.slice(0, 12)}`);
  const cli = join(dir, 'apps/agent/dist/cli.js');
  if (existsSync(cli)) return cli;
  console.log(`building the baseline (${beforeRef} = ${commit.slice(0, 12)}) in ${dir} …`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C ${dir}`], { cwd: repo });
  // Share this checkout's installed dependencies: the root node_modules and each package's own
  // (workspace links inside are relative, so they resolve to the baseline's packages).
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  for (const group of ['packages', 'apps', 'tooling']) {
    if (!existsSync(join(dir, group))) continue;
    for (const name of readdirSync(join(dir, group))) {
      const mine = join(repo, group, name, 'node_modules');
      if (existsSync(mine) && !existsSync(join(dir, group, name, 'node_modules'))) {
        execFileSync('cp', ['-a', mine, join(dir, group, name, 'node_modules')]);
      }
    }
  }
  const order = [
    'registry',
    'sandbox',
    'sandbox-node',
    'sandbox-daytona',
    'runtime',
    'tools-fs',
    'tools-shell',
    'discovery',
    'defer',
    'compactor',
  ];
  const tsc = join(repo, 'node_modules/.bin/tsc');
  for (const name of order) {
    const project = join(dir, 'packages', name, 'tsconfig.build.json');
    if (existsSync(project)) execFileSync(tsc, ['-p', project], { stdio: 'inherit' });
  }
  execFileSync(tsc, ['-p', join(dir, 'apps/agent/tsconfig.build.json')], { stdio: 'inherit' });
  return cli;
}

function peakRss(pid) {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function measure(label, cli) {
  const work = mkdtempSync(join(tmpdir(), `aibuddy-bench-cli-output-${label}-`));
  const workspace = join(work, 'ws');
  mkdirSync(workspace);
  const script = join(work, 'replay.json');
  const events = join(work, 'events.jsonl');
  writeFileSync(
    script,
    JSON.stringify({
      steps: [
        { toolCalls: [{ toolName: 'execute', id: 'bytes', input: { command: writer, timeout: seconds + 60 } }] },
        { text: 'done' },
      ],
    }),
  );
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      cli,
      'run',
      'one byte at a time',
      '--workspace',
      workspace,
      '--model',
      `replay:${script}`,
      '--events',
      events,
      '--yes',
      '--data-dir',
      join(work, 'data'),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let peak = 0;
  const poll = setInterval(() => (peak = Math.max(peak, peakRss(child.pid))), 100);
  const code = await new Promise((done) => child.on('exit', (c) => done(c)));
  clearInterval(poll);
  const ms = Date.now() - started;
  const log = readFileSync(events, 'utf8');
  const lines = log
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const outputs = lines.filter((e) => e.type === 'tool-output');
  const bytes = outputs.reduce((sum, e) => sum + e.chunk.length, 0);
  const result = {
    label,
    exit: code,
    seconds: Math.round(ms / 100) / 10,
    logBytes: statSync(events).size,
    toolOutputEvents: outputs.length,
    bytesStreamed: bytes,
    peakRssMB: Math.round(peak / 1024 / 1024),
  };
  if (code !== 0) result.stderr = stderr.slice(-500);
  rmSync(work, { recursive: true, force: true });
  return result;
}

const before = baselineCli();
const after = join(repo, 'apps/agent/dist/cli.js');
if (!existsSync(after)) {
  console.error('apps/agent/dist/cli.js is missing: run `pnpm build` first.');
  process.exit(2);
}
console.log(
  `cli-output: ${seconds} s of one-byte writes through \`aibuddy run --events\` (before = ${beforeRef}, after = this checkout)`,
);
const rows = [await measure('before', before), await measure('after', after)];
console.table(rows);
const [b, a] = rows;
const ratio = (x, y) => (y === 0 ? 'n/a' : `${(x / y).toFixed(3)}x`);
console.log(`event log: ${a.logBytes} B vs ${b.logBytes} B → ${ratio(a.logBytes, b.logBytes)}`);
console.log(
  `tool-output events: ${a.toolOutputEvents} vs ${b.toolOutputEvents} → ${ratio(a.toolOutputEvents, b.toolOutputEvents)}`,
);
console.log(`peak RSS of the CLI: ${a.peakRssMB} MB vs ${b.peakRssMB} MB → ${ratio(a.peakRssMB, b.peakRssMB)}`);
console.log(`bytes streamed to the client: ${a.bytesStreamed} (after) vs ${b.bytesStreamed} (before)`);
if (rows.some((r) => r.exit !== 0)) process.exit(1);
