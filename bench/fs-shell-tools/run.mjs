#!/usr/bin/env node
// Cost of the filesystem and shell tools over the raw sandbox calls they wrap, side by side in one run.
//
//   pnpm build && node bench/fs-shell-tools/run.mjs [--runs 7]
//
// Each figure is the median of --runs runs (alternating baseline and tool), printed next to its
// baseline and as a ratio:
//   execute-5mb   raw sandbox.exec of a 5 MB command  vs  the execute tool (live capture + 30,000-char view)
//   edit-exact    raw sandbox.editFile on a 20,000-line file  vs  edit_file (stale check, match, edit, read-back verify)
//   edit-tolerant raw sandbox.editFile  vs  edit_file whose old_text uses spaces where the file has tabs
//   edit-miss     raw sandbox.readFile of the file  vs  edit_file that finds nothing and ranks candidates
//   edit-over-limit  peak RSS (own child process each) on a file over edit_file's 16 MiB limit
//                 (--edit-mb, default 256 MB of text): an idle child (imports only), "before" = the
//                 whole-file read the tool used to start with, "after" = edit_file now (refused from
//                 the file's size before reading). Ratios against the idle child.
import { spawnSync } from 'node:child_process';
import { open, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

// Built packages, imported from their dist folders (the repo root does not depend on them).
const dist = (name) => new URL(`../../packages/${name}/dist/index.js`, import.meta.url).href;
const { resolveToolSet } = await import(dist('registry'));
const { createNodeSandbox } = await import(dist('sandbox-node'));
const { createFilesystemToolConfig } = await import(dist('tools-fs'));
const { createShellToolConfig } = await import(dist('tools-shell'));

const args = process.argv.slice(2);

// Child mode of edit-over-limit: one measurement per process, so peak RSS is its own.
const childAt = args.indexOf('--rss-child');
if (childAt >= 0) {
  const [mode, dir, file] = args.slice(childAt + 1);
  const box = await createNodeSandbox({ type: 'node', root: dir, isolation: 'off' });
  let outcome = 'ok';
  try {
    if (mode === 'before') {
      // What edit_file did first before the size check: read the whole file as lines.
      await box.readFile(file, { limit: 1_000_000_000 });
    } else if (mode === 'after') {
      const set = await resolveToolSet({ configs: [createFilesystemToolConfig()], services: { sandbox: box } });
      const edit = set.tools.find((t) => t.definition.name === 'edit_file').definition;
      const ctx = {
        toolCallId: 'bench',
        signal: new AbortController().signal,
        taskId: undefined,
        services: { sandbox: box },
        emitOutput: () => undefined,
        heartbeat: () => undefined,
      };
      await edit.execute({ path: file, old_text: 'line 1 ', new_text: 'line one ' }, ctx);
    }
  } catch (error) {
    outcome = String(error.message).slice(0, 110);
  }
  console.log(JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, outcome }));
  process.exit(0);
}
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 7;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const root = await mkdtemp(join(tmpdir(), 'aibuddy-bench-'));
const sandbox = await createNodeSandbox({ type: 'node', root, isolation: 'off' });
const context = (signal = new AbortController().signal) => ({
  toolCallId: 'bench',
  signal,
  taskId: undefined,
  services: { sandbox },
  emitOutput: () => undefined,
  heartbeat: () => undefined,
});
const toolsOf = async (config) => {
  const set = await resolveToolSet({ configs: [config], services: { sandbox } });
  return Object.fromEntries(set.tools.map((t) => [t.definition.name, t.definition]));
};
const shell = await toolsOf(createShellToolConfig());

const lines = Array.from({ length: 20_000 }, (_, i) =>
  i % 50 === 0 ? `func f${i}() {` : `\tvalue${i} := compute(${i}) // line ${i}`,
);
const original = `${lines.join('\n')}\n`;

// `setup` runs untimed before each timed call (restoring the file, a fresh run's tools).
async function measure(name, baseline, tool, setup = async () => undefined) {
  const base = [];
  const mine = [];
  for (let i = 0; i < runs; i++) {
    await setup(i);
    let t = performance.now();
    await baseline(i);
    base.push(performance.now() - t);
    const prepared = await setup(i);
    t = performance.now();
    await tool(i, prepared);
    mine.push(performance.now() - t);
  }
  const b = median(base);
  const m = median(mine);
  console.log(
    `${name.padEnd(14)} baseline ${b.toFixed(1).padStart(8)} ms   tool ${m.toFixed(1).padStart(8)} ms   ratio ${(m / b).toFixed(2)}x`,
  );
}

try {
  const command = 'yes 0123456789 | head -c 5000000';
  await measure(
    'execute-5mb',
    () => sandbox.exec(command),
    async () => {
      const definition = shell.execute;
      const output = await definition.execute({ command }, context());
      const view = definition.toModelOutput({ toolName: 'execute', toolCallId: 'bench', input: { command }, output });
      if (typeof view !== 'string' || view.length > 31_000) throw new Error('unexpected view');
    },
  );

  // A fresh run per call: the file is restored from outside, which the stale-read guard would
  // (rightly) refuse within one run.
  const fresh = async () => {
    await writeFile(join(root, 'big.go'), original);
    return toolsOf(createFilesystemToolConfig());
  };
  await measure(
    'edit-exact',
    async (i) => {
      await sandbox.editFile('big.go', { oldText: `\tvalue${101 + i} := compute(${101 + i})`, newText: '\tchanged := 1' });
    },
    async (i, fsTools) => {
      await fsTools.edit_file.execute(
        { path: 'big.go', old_text: `\tvalue${101 + i} := compute(${101 + i})`, new_text: '\tchanged := 1' },
        context(),
      );
    },
    fresh,
  );
  await measure(
    'edit-tolerant',
    async (i) => {
      await sandbox.editFile('big.go', {
        oldText: `\tvalue${201 + i} := compute(${201 + i}) // line ${201 + i}`,
        newText: '\tchanged := 1',
      });
    },
    async (i, fsTools) => {
      await fsTools.edit_file.execute(
        {
          path: 'big.go',
          old_text: `    value${201 + i} := compute(${201 + i}) // line ${201 + i}`,
          new_text: '    changed := 1',
        },
        context(),
      );
    },
    fresh,
  );
  await measure(
    'edit-miss',
    () => sandbox.readFile('big.go', { limit: 1_000_000_000 }),
    async (_i, fsTools) => {
      try {
        await fsTools.edit_file.execute({ path: 'big.go', old_text: 'valu3 := computed(3) // line 3', new_text: 'x' }, context());
        throw new Error('expected a miss');
      } catch (error) {
        if (!String(error.message).includes('Closest candidates')) throw error;
      }
    },
    fresh,
  );

  // edit_file on a file over its limit: peak RSS of separate child processes.
  const mbAt = args.indexOf('--edit-mb');
  const editMb = mbAt >= 0 ? Number(args[mbAt + 1]) : 256;
  const bigPath = join(root, 'over-limit.log');
  const handle = await open(bigPath, 'w');
  const block = Buffer.from(Array.from({ length: 10_000 }, (_, i) => `line ${i} ${'x'.repeat(88)}`).join('\n') + '\n');
  for (let written = 0; written < editMb * 1024 * 1024; written += block.length) await handle.write(block);
  await handle.close();
  const self = fileURLToPath(import.meta.url);
  const child = (mode) => {
    const run = spawnSync(process.execPath, [self, '--rss-child', mode, root, 'over-limit.log'], {
      encoding: 'utf8',
      maxBuffer: 1024 * 1024,
    });
    const line = run.stdout.trim().split('\n').at(-1) ?? '';
    try {
      return JSON.parse(line);
    } catch {
      return { maxRssKb: NaN, outcome: `child failed: ${(run.stderr || line).trim().slice(0, 200)}` };
    }
  };
  const idle = child('idle');
  const before = child('before');
  const after = child('after');
  const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
  console.log(
    `edit-over-limit (${editMb} MB file)  idle ${mb(idle.maxRssKb)}   before (whole-file read) ${mb(before.maxRssKb)}, ratio ${(before.maxRssKb / idle.maxRssKb).toFixed(2)}x   after (edit_file) ${mb(after.maxRssKb)}, ratio ${(after.maxRssKb / idle.maxRssKb).toFixed(2)}x`,
  );
  console.log(`  before: ${before.outcome}`);
  console.log(`  after:  ${after.outcome}`);
} finally {
  await sandbox.close?.();
  await rm(root, { recursive: true, force: true });
}
