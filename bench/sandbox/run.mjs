// Sandbox benchmark: each figure next to its baseline from the same run.
//   pnpm --filter @aibuddy/sandbox --filter @aibuddy/sandbox-node build && node bench/sandbox/run.mjs [section...]
// Sections (default all): ops grep read exec spawn.
// ops: the held-descriptor file operations vs the old string-path ones (baseline-ops.mjs, a copy of
// the code before the rewrite, kept only here), interleaved in the same run; target <= 1.5x.
// Figures: grep vs raw ripgrep over a large tree; a line window from a 1 GB file (peak RSS);
// exec producing 1 GB of output (peak RSS growth, MB/s vs the same command into /dev/null);
// spawn overhead vs raw child_process.spawn. Big files live in a temp folder deleted at the end.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dist = join(repo, 'packages/sandbox-node/dist/index.js');
if (!existsSync(dist)) {
  console.error('Build first: pnpm --filter @aibuddy/sandbox --filter @aibuddy/sandbox-node build');
  process.exit(1);
}
const distUrl = pathToFileURL(dist).href;
const { createNodeSandbox } = await import(distUrl);
const baseline = await import('./baseline-ops.mjs');
const sections = new Set(process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['ops', 'grep', 'read', 'exec', 'spawn']);

const GB = 1024 * 1024 * 1024;
const MB = 1024 * 1024;
const work = mkdtempSync(join(tmpdir(), 'aibuddy-bench-'));
const rows = [];
const fmt = (n, d = 1) => Number(n).toFixed(d);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function row(what, ours, baseline, ratio, target) {
  rows.push({ what, ours, baseline, ratio, target });
  console.log(`- ${what}: ${ours} | baseline ${baseline} | ${ratio}${target ? ` | target ${target}` : ''}`);
}

/** Runs a module snippet in a fresh Node process and returns its JSON line (peak RSS is per process). */
function child(code) {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', maxBuffer: 64 * MB });
  return JSON.parse(out.trim().split('\n').pop());
}

const HWM = `(async () => { const s = (await import('node:fs')).readFileSync('/proc/self/status', 'utf8'); return Number(/VmHWM:\\s+(\\d+)/.exec(s)[1]) * 1024; })()`;

async function timeIt(fn) {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

function rawRg(args, cwd) {
  return new Promise((res, rej) => {
    const p = spawn('rg', args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
    let bytes = 0;
    p.stdout.on('data', (c) => (bytes += c.length));
    p.on('error', rej);
    p.on('close', () => res(bytes));
  });
}

try {
  console.log(
    `# sandbox benchmark (${new Date().toISOString()}, node ${process.version}, ${spawnSync('rg', ['--version']).stdout.toString().split('\n')[0]})\n`,
  );

  // 0. Held-descriptor operations vs the string-path baseline, alternating run by run so load
  // changes hit both alike. Small operations are timed in batches; the median batch counts.
  if (sections.has('ops')) {
    const root = join(work, 'ops');
    const deep = 'a/b/c/d';
    execFileSync('mkdir', ['-p', join(root, deep), join(root, 'wide')]);
    const text = Array.from({ length: 200 }, (_, i) => `line ${i} ${'x'.repeat(60)}`).join('\n');
    for (let i = 0; i < 20; i++) execFileSync('cp', ['/dev/null', join(root, deep, `f${i}.txt`)]);
    const { writeFileSync } = await import('node:fs');
    for (let i = 0; i < 20; i++) writeFileSync(join(root, deep, `f${i}.txt`), text);
    for (let i = 0; i < 300; i++) writeFileSync(join(root, 'wide', `w${i}.txt`), 'x'.repeat(i));
    const sb = await createNodeSandbox({ type: 'node', root, isolation: 'off' });
    const rootReal = sb.root;
    const batch = (n, fn) => async () => {
      for (let i = 0; i < n; i++) await fn(i);
    };
    const compare = async (what, ours, base, reps = 7) => {
      await ours();
      await base();
      const o = [];
      const b = [];
      for (let r = 0; r < reps; r++) {
        if (r % 2 === 0) {
          o.push(await timeIt(ours));
          b.push(await timeIt(base));
        } else {
          b.push(await timeIt(base));
          o.push(await timeIt(ours));
        }
      }
      const mo = median(o);
      const mb = median(b);
      row(what, `${fmt(mo, 1)} ms`, `string paths ${fmt(mb, 1)} ms`, `${fmt(mo / mb, 2)}x the cost`, '<= 1.5x');
    };
    await compare(
      `readFile ${deep}/fN.txt (depth 5, 200 lines), 500 calls, median of 7`,
      batch(500, (i) => sb.readFile(`${deep}/f${i % 20}.txt`)),
      batch(500, (i) => baseline.readFile(rootReal, `${deep}/f${i % 20}.txt`)),
    );
    await compare(
      'ls of a folder of 300 files, 50 calls, median of 7',
      batch(50, () => sb.ls('wide')),
      batch(50, () => baseline.ls(rootReal, 'wide')),
    );
    await compare(
      `writeFile ${deep}/new-N.txt (fsync + rename), 200 calls, median of 7`,
      batch(200, (i) => sb.writeFile(`${deep}/new-${i % 10}.txt`, text)),
      batch(200, (i) => baseline.writeFile(rootReal, `${deep}/new-${i % 10}.txt`, text)),
    );
    rmSync(root, { recursive: true, force: true });
  }

  // 1. grep over a large tree vs ripgrep directly. The tree is a hard-link copy of the repo's
  // node_modules/.pnpm (same bytes, no .gitignore above it, so both search all of it).
  // The same tree serves the glob figure (held-descriptor walk vs the string-path walk).
  if (sections.has('grep')) {
    const tree = join(work, 'tree');
    execFileSync('cp', ['-al', join(repo, 'node_modules/.pnpm'), tree]);
    // Both grep engines skip node_modules folders (as ripgrep users expect in a project), so the
    // copy renames them: otherwise the sandbox would search almost nothing and rg everything.
    execFileSync('bash', ['-c', 'find "$1" -depth -type d -name node_modules -execdir mv {} nm \\;', '_', tree]);
    const du = Number(execFileSync('du', ['-sb', tree], { encoding: 'utf8' }).split('\t')[0]);
    // isolation auto: with bubblewrap present, grep runs ripgrep confined (the path a user gets).
    const sandbox = await createNodeSandbox({ type: 'node', root: work, searchTimeoutMs: 600_000 });
    const pattern = 'createHash\\(';
    const rgArgs = [
      '--no-config',
      '--null',
      '--line-number',
      '--with-filename',
      '--no-heading',
      '--color=never',
      '--',
      pattern,
      'tree',
    ];
    await rawRg(rgArgs, work); // warm the page cache
    let matches = 0;
    const ours = [];
    const raw = [];
    for (let i = 0; i < 5; i++) {
      raw.push(await timeIt(() => rawRg(rgArgs, work)));
      ours.push(
        await timeIt(async () => (matches = (await sandbox.grep(pattern, { path: 'tree', limit: 1_000_000 })).matches.length)),
      );
    }
    const o = median(ours);
    const r = median(raw);
    row(
      `grep "${pattern}" over ${fmt(du / MB, 0)} MB (${matches} matches), median of 5`,
      `${fmt(o, 0)} ms (${fmt(du / MB / (o / 1000), 0)} MB/s)`,
      `rg directly ${fmt(r, 0)} ms (${fmt(du / MB / (r / 1000), 0)} MB/s)`,
      `${fmt(r / o, 2)}x rg throughput`,
      '>= 0.8x',
    );
    const globOurs = [];
    const globBase = [];
    let globbed = 0;
    const globRegex = /(^|\/)nm\/(.*\/)?[^/]*\.js$/;
    for (let i = 0; i < 5; i++) {
      globOurs.push(
        await timeIt(
          async () => (globbed = (await sandbox.glob('**/nm/**/*.js', { path: 'tree', limit: 10_000_000 })).files.length),
        ),
      );
      globBase.push(await timeIt(() => baseline.glob(work, 'tree', globRegex, false)));
    }
    const entries = Number(execFileSync('bash', ['-c', `find ${JSON.stringify(tree)} | wc -l`], { encoding: 'utf8' }).trim());
    row(
      `glob "**/nm/**/*.js" over the same tree (${entries} entries, ${globbed} matches), median of 5`,
      `${fmt(median(globOurs), 0)} ms`,
      `string-path walk ${fmt(median(globBase), 0)} ms`,
      `${fmt(median(globOurs) / median(globBase), 2)}x the cost`,
      '<= 1.5x',
    );
    rmSync(tree, { recursive: true, force: true });
  }

  // 2. A line window from a 1 GB file, measured in its own process (peak RSS = VmHWM).
  if (sections.has('read')) {
    const file = join(work, 'big.txt');
    const fd = openSync(file, 'w');
    const line = `${'x'.repeat(99)}\n`;
    const block = Buffer.from(line.repeat(10_000)); // ~1 MB
    const blocks = Math.ceil(GB / block.length);
    for (let i = 0; i < blocks; i++) writeSync(fd, block);
    closeSync(fd);
    const totalLines = blocks * 10_000;
    const offset = totalLines - 1000;
    const setup = `const { createNodeSandbox } = await import(${JSON.stringify(distUrl)});
      const sb = await createNodeSandbox({ type: 'node', root: ${JSON.stringify(work)}, isolation: 'off' });`;
    const base = child(`${setup} console.log(JSON.stringify({ hwm: await ${HWM} }));`);
    const read = child(`${setup}
      const t = performance.now();
      const r = await sb.readFile('big.txt', { offset: ${offset}, limit: 2000 });
      const ms = performance.now() - t;
      console.log(JSON.stringify({ hwm: await ${HWM}, ms, lines: r.endLine - r.startLine + 1, total: r.totalLines }));`);
    const sedMs = await timeIt(
      () =>
        new Promise((res) =>
          spawn('sed', ['-n', `${offset},${offset + 1999}p`, file], { stdio: ['ignore', 'ignore', 'ignore'] }).on('close', res),
        ),
    );
    row(
      `readFile window (lines ${offset}-${offset + read.lines - 1} of ${read.total}) from a 1 GB file`,
      `peak RSS ${fmt(read.hwm / MB)} MB, ${fmt(read.ms, 0)} ms (${fmt(1024 / (read.ms / 1000), 0)} MB/s)`,
      `same process without the read: peak RSS ${fmt(base.hwm / MB)} MB; sed -n: ${fmt(sedMs, 0)} ms`,
      `growth ${fmt((read.hwm - base.hwm) / MB)} MB`,
      '<= 64 MB RSS',
    );
    rmSync(file, { force: true });
  }

  // 3. exec producing 1 GB of output: peak RSS growth and MB/s vs the same command into /dev/null.
  if (sections.has('exec')) {
    const command = 'yes "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz" | head -c 1073741824';
    const setup = `const { createNodeSandbox } = await import(${JSON.stringify(distUrl)});
      const sb = await createNodeSandbox({ type: 'node', root: ${JSON.stringify(work)}, isolation: 'off', defaultTimeoutMs: 600000 });
      await sb.exec('true');`;
    for (const live of [false, true]) {
      const r = child(`${setup}
        const before = await ${HWM};
        let chars = 0;
        const t = performance.now();
        const res = await sb.exec(${JSON.stringify(command)}${live ? ', { onStdout: (c) => { chars += c.length; } }' : ''});
        const ms = performance.now() - t;
        console.log(JSON.stringify({ before, after: await ${HWM}, ms, truncated: res.truncated, kept: res.stdout.length, chars }));`);
      const devNull = await timeIt(
        () => new Promise((res) => spawn('bash', ['-c', `${command} > /dev/null`], { stdio: 'ignore' }).on('close', res)),
      );
      // A second baseline: the bare cost of piping the same bytes into Node and dropping them.
      const piped = child(`const { spawn } = await import('node:child_process');
        const before = await ${HWM};
        const t = performance.now();
        await new Promise((res) => { const p = spawn('bash', ['-c', ${JSON.stringify(command)}], { stdio: ['ignore', 'pipe', 'pipe'] }); p.stdout.on('data', () => {}); p.on('close', res); });
        const ms = performance.now() - t;
        console.log(JSON.stringify({ before, after: await ${HWM}, ms }));`);
      row(
        `exec 1 GB of output${live ? ' with a live onStdout listener' : ''} (cap 1 MiB, truncated=${r.truncated})`,
        `${fmt(1024 / (r.ms / 1000), 0)} MB/s, peak RSS ${fmt(r.after / MB)} MB (growth ${fmt((r.after - r.before) / MB)} MB)`,
        `same command > /dev/null: ${fmt(1024 / (devNull / 1000), 0)} MB/s; raw spawn piping into Node: ${fmt(1024 / (piped.ms / 1000), 0)} MB/s, RSS growth ${fmt((piped.after - piped.before) / MB)} MB`,
        `${fmt(devNull / r.ms, 2)}x of /dev/null speed, ${fmt(piped.ms / r.ms, 2)}x of raw piping`,
        'RSS growth <= 64 MB',
      );
    }
  }

  // 4. Spawn overhead vs raw child_process.spawn of the same `bash -c true`.
  if (sections.has('spawn')) {
    const N = 40;
    const rawSpawn = () =>
      new Promise((res) => spawn('bash', ['-c', 'true'], { stdio: ['ignore', 'pipe', 'pipe'] }).on('close', res));
    const off = await createNodeSandbox({ type: 'node', root: work, isolation: 'off' });
    const bw = await createNodeSandbox({ type: 'node', root: work, isolation: 'required' });
    await rawSpawn();
    await off.exec('true');
    await bw.exec('true');
    const samples = { raw: [], off: [], bw: [] };
    for (let i = 0; i < N; i++) {
      samples.raw.push(await timeIt(rawSpawn));
      samples.off.push(await timeIt(() => off.exec('true')));
      samples.bw.push(await timeIt(() => bw.exec('true')));
    }
    const r = median(samples.raw);
    row(
      `exec("true") unconfined, median of ${N}`,
      `${fmt(median(samples.off), 2)} ms`,
      `raw spawn ${fmt(r, 2)} ms`,
      `+${fmt(median(samples.off) - r, 2)} ms`,
    );
    row(
      `exec("true") under bubblewrap, median of ${N}`,
      `${fmt(median(samples.bw), 2)} ms`,
      `raw spawn ${fmt(r, 2)} ms`,
      `+${fmt(median(samples.bw) - r, 2)} ms`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
