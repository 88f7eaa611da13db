import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResultStore } from './result-store.js';
import type { StoredResult } from './result-store.js';
import { storedResult } from './__fixtures__/stored-result.js';

// A real crash: a child process runs the store's own code (transpiled from these sources) and is
// killed with SIGKILL while it writes a large record. Nothing torn may be visible afterwards.
const here = dirname(fileURLToPath(import.meta.url));
let work: string;
let moduleDir: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'compactor-crash-'));
  moduleDir = join(work, 'lib');
  await mkdir(moduleDir);
  const require = createRequire(import.meta.url);
  const ts = require('typescript') as typeof import('typescript');
  for (const name of ['result-store', 'safe-name', 'errors', 'safe-fs', 'stored-records']) {
    const source = await readFile(join(here, `${name}.ts`), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    await writeFile(join(moduleDir, `${name}.js`), outputText);
  }
  await writeFile(join(moduleDir, 'package.json'), '{"type":"module"}');
  // The records are validated with zod: the child resolves the same copy the package uses.
  await mkdir(join(moduleDir, 'node_modules'));
  await symlink(dirname(require.resolve('zod/package.json')), join(moduleDir, 'node_modules', 'zod'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function record(output: string): StoredResult {
  return { ...storedResult('call_crash', 'task-crash', output), toolName: 'execute', input: { command: 'cat big.log' } };
}

describe('a crash between write and rename', () => {
  it('SIGKILL while the temp file is being written leaves the previous record intact and no torn final file', async () => {
    const dataDir = join(work, 'data');
    const store = createResultStore({ dataDir });
    await store.write(record('previous complete record'));
    const folder = join(store.root, 'task-crash');

    const script = `
      import { createResultStore } from ${JSON.stringify(join(moduleDir, 'result-store.js'))};
      const store = createResultStore({ dataDir: ${JSON.stringify(dataDir)}, beforeRename: () => new Promise(() => {}) });
      const output = 'y'.repeat(24 * 1024 * 1024);
      process.stdout.write('writing\\n');
      await store.write({ ...${JSON.stringify(record(''))}, output });
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));

    // Kill as soon as a temp file exists (mid-write or just before the rename), bounded to 10 s.
    let tempSize = -1;
    for (let i = 0; i < 5_000 && tempSize < 0; i++) {
      const names = await readdir(folder);
      const temp = names.find((n) => n.endsWith('.tmp'));
      if (temp) tempSize = (await stat(join(folder, temp)).catch(() => ({ size: 0 }))).size;
      else await new Promise((r) => setTimeout(r, 2));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    expect(stderr).toBe('');
    expect(tempSize).toBeGreaterThanOrEqual(0);

    // After the crash: the final file is the previous, complete record; the temp file is not a record.
    const after = createResultStore({ dataDir, staleTempMs: 0 });
    expect((await after.read('task-crash', 'call_crash'))?.output).toBe('previous complete record');
    const names = await readdir(folder);
    expect(names.filter((n) => n.endsWith('.json'))).toEqual(['call_crash.json']);
    // The leftover temp file is removed by the next prune.
    await after.prune();
    expect((await readdir(folder)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
