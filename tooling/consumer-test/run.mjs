#!/usr/bin/env node
// The consumer test: what a team gets from the registry. Every publishable package is packed
// (`pnpm pack`, so workspace: ranges become real ones), installed into a fresh project with the
// newest `ai` 6.x the registry serves, and then:
//   - `npm ls` shows exactly one copy of `ai` and of `zod` (peer dependencies, deduped);
//   - every ```ts / ```js block of every package README type-checks under `strict` with
//     `skipLibCheck: false`, and runs (```ts no-run blocks are type-checked only);
//   - `npx aibuddy --help` and the offline demo run from the installed tarball.
// Usage: node tooling/consumer-test/run.mjs [--pm npm|pnpm] [--keep]
// Prints one line per check and exits non-zero when any fails.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const pm = args.includes('--pm') ? args[args.indexOf('--pm') + 1] : 'npm';
const keep = args.includes('--keep');
const PNPM = ['-y', 'pnpm@12.4.2'];
let failures = 0;

function report(name, ok, detail = '') {
  console.log(`  ${ok ? 'ok' : 'FAILED'}  ${name}${detail ? `: ${detail}` : ''}`);
  if (!ok) failures++;
}

function run(cmd, argv, options = {}) {
  const r = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 64 << 20, timeout: options.timeoutMs ?? 600_000, ...options });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', error: r.error };
}

function tail(text, lines = 25) {
  return text.split('\n').slice(-lines).join('\n');
}

// 1. Pack every publishable package.
const packages = [...readdirSync(join(repo, 'packages')).map((d) => join(repo, 'packages', d)), join(repo, 'apps', 'agent')]
  .filter((dir) => existsSync(join(dir, 'package.json')))
  .map((dir) => ({ dir, json: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
  .filter((p) => !p.json.private);
const work = mkdtempSync(join(tmpdir(), `aibuddy-consumer-${pm}-`));
const tarballs = join(work, 'tarballs');
mkdirSync(tarballs);
for (const p of packages) {
  const r = run('npx', [...PNPM, 'pack', '--pack-destination', tarballs], { cwd: p.dir });
  if (r.code !== 0) {
    report(`pack ${p.json.name}`, false, tail(r.stderr || r.stdout));
  }
}
const tgz = readdirSync(tarballs)
  .filter((f) => f.endsWith('.tgz'))
  .map((f) => join(tarballs, f));
report(`packed ${tgz.length} packages`, tgz.length === packages.length);

// 2. A fresh project: the tarballs, the newest ai 6.x, zod 4, both providers, TypeScript.
const project = join(work, 'project');
mkdirSync(project);
const aiVersion = run('npm', ['view', 'ai@^6', 'version', '--json']);
const versions = JSON.parse(aiVersion.stdout || '[]');
const newestAi = Array.isArray(versions) ? versions.at(-1) : versions;
console.log(`  (newest ai 6.x on the registry: ${newestAi})`);
// pnpm resolves a tarball's own @aibuddy/* dependencies from the registry, where they are not (yet):
// overrides point every one of them at its tarball, as a consumer would before publishing.
const tarballOf = (name) =>
  tgz.find((f) =>
    f.endsWith(`${name.replace('@', '').replace('/', '-')}-${packages.find((p) => p.json.name === name).json.version}.tgz`),
  );
const overrides = Object.fromEntries(
  packages.map((p) => [p.json.name, `file:${tarballOf(p.json.name)}`]).filter(([, f]) => f !== 'file:undefined'),
);
writeFileSync(
  join(project, 'package.json'),
  JSON.stringify({ name: 'consumer', private: true, type: 'module', ...(pm === 'pnpm' ? { pnpm: { overrides } } : {}) }, null, 2),
);
if (pm === 'pnpm') {
  writeFileSync(
    join(project, 'pnpm-workspace.yaml'),
    `overrides:\n${Object.entries(overrides)
      .map(([name, spec]) => `  ${JSON.stringify(name)}: ${JSON.stringify(spec)}\n`)
      .join('')}`,
  );
}
const deps = [
  ...tgz,
  `ai@${newestAi}`,
  'zod@^4',
  '@ai-sdk/anthropic@^3',
  '@ai-sdk/openai@^3',
  'vitest@^4',
  'typescript@5.9.3',
  '@types/node@20',
];
const install =
  pm === 'pnpm'
    ? run('npx', [...PNPM, 'add', ...deps], { cwd: project, timeoutMs: 900_000 })
    : run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...deps], { cwd: project, timeoutMs: 900_000 });
report(
  `${pm} install of the tarballs with ai@${newestAi}`,
  install.code === 0,
  install.code === 0 ? '' : tail(install.stderr || install.stdout),
);
if (install.code !== 0) finish();

// 3. One copy of ai and of zod.
if (pm === 'npm') {
  for (const name of ['ai', 'zod']) {
    const ls = run('npm', ['ls', name, '--all', '--parseable'], { cwd: project });
    const copies = new Set(
      ls.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.trim()),
    );
    report(
      `one copy of ${name}`,
      copies.size === 1,
      `${copies.size} found${copies.size > 1 ? `: ${[...copies].join(', ')}` : ''}`,
    );
  }
} else {
  for (const name of ['ai', 'zod']) {
    const store = join(project, 'node_modules', '.pnpm');
    const copies = existsSync(store) ? readdirSync(store).filter((d) => d.startsWith(`${name}@`)) : [];
    report(
      `one copy of ${name}`,
      copies.length === 1,
      `${copies.length} found${copies.length > 1 ? `: ${copies.join(', ')}` : ''}`,
    );
  }
}

// 4. README blocks: extracted, type-checked, run.
const blocks = [];
for (const p of packages) {
  const readme = join(p.dir, 'README.md');
  if (!existsSync(readme)) continue;
  const text = readFileSync(readme, 'utf8');
  const fence = /^```(ts|js)(?![\w-])([^\n]*)\n([\s\S]*?)^```$/gm;
  let m;
  let n = 0;
  while ((m = fence.exec(text))) {
    n++;
    const noRun = /\bno-run\b/.test(m[2]);
    const line = text.slice(0, m.index).split('\n').length;
    const file = `${p.json.name.replace('@aibuddy/', '')}-${n}.${m[1] === 'ts' ? 'ts' : 'mjs'}`;
    // `export {}` keeps each block a module (top-level await, no clashes between blocks).
    writeFileSync(join(project, file), `${m[3]}\nexport {};\n`);
    blocks.push({ pkg: p.json.name, file, noRun, where: `${p.json.name} README.md:${line}` });
  }
}
writeFileSync(
  join(project, 'tsconfig.json'),
  JSON.stringify(
    {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        skipLibCheck: false,
        noEmit: false,
        outDir: 'out',
        allowJs: true,
        checkJs: false,
        types: ['node'],
      },
      include: ['*.ts', '*.mjs'],
    },
    null,
    2,
  ),
);
const tsc = run(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], {
  cwd: project,
});
// Upstream packages' own declaration errors are theirs, not ours: only errors in our files and tarballs count.
const errors = (tsc.stdout + tsc.stderr).split('\n').filter((l) => /error TS/.test(l));
const ours = errors.filter((l) => !/^node_modules\//.test(l) || /node_modules\/@aibuddy\//.test(l));
const upstream = errors.length - ours.length;
report(
  `type-check of ${blocks.length} README blocks and the packages' declarations (strict, skipLibCheck false)`,
  ours.length === 0,
  ours.length ? `\n${ours.join('\n')}` : upstream ? `(${upstream} errors in upstream packages' own declarations ignored)` : '',
);
for (const b of blocks) {
  if (b.noRun) continue;
  const js = join(project, 'out', b.file.replace(/\.ts$/, '.js'));
  const r = run(process.execPath, [js], {
    cwd: project,
    timeoutMs: 120_000,
    env: { ...process.env, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' },
  });
  report(`run ${b.where}`, r.code === 0, r.code === 0 ? '' : tail(r.stderr || r.stdout, 12));
}

// 5. The CLI from the installed tarball: --help from a fresh folder, and the offline demo.
const fresh = join(work, 'fresh');
mkdirSync(fresh);
const agentTgz = tgz.find((f) => /aibuddy-agent-/.test(f));
const help = run('npx', ['-y', '--prefix', project, 'aibuddy', '--help'], { cwd: fresh });
report(
  'npx aibuddy --help (installed tarball)',
  help.code === 0 && /aibuddy run/.test(help.stdout),
  help.code === 0 ? '' : tail(help.stderr || help.stdout),
);
// The agent's @aibuddy dependencies are not on the registry yet: every tarball is offered to npx.
const npxFresh = run('npx', ['-y', ...tgz.map((t) => `--package=${t}`), 'aibuddy', '--help'], { cwd: fresh, timeoutMs: 900_000 });
report(
  `npx ${agentTgz ? 'aibuddy (from the @aibuddy/agent tarball)' : '(no agent tarball)'} --help in an empty folder`,
  npxFresh.code === 0 && /aibuddy run/.test(npxFresh.stdout),
  npxFresh.code === 0 ? '' : tail(npxFresh.stderr || npxFresh.stdout),
);
const demo = run(join(project, 'node_modules', '.bin', 'aibuddy'), ['run'], {
  cwd: fresh,
  timeoutMs: 300_000,
  env: { ...process.env, ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', NO_COLOR: '1' },
});
report(
  'offline demo from the installed tarball (aibuddy run)',
  demo.code === 0 && /done in/.test(demo.stdout),
  demo.code === 0 ? '' : tail(demo.stderr || demo.stdout),
);
finish();

function finish() {
  if (!keep) rmSync(work, { recursive: true, force: true });
  else console.log(`  (kept ${work})`);
  console.log(`consumer test (${pm}): ${failures === 0 ? 'ok' : `${failures} failed`}`);
  process.exit(failures === 0 ? 0 : 1);
}
