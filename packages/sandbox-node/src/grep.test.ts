import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxArgumentError, SandboxNotAFileError } from '@aibuddy/sandbox';
import { createNodeSandbox, type NodeSandbox } from './node-sandbox.js';
// Needs rg: skipped with the reason where missing, required in CI (see system-tools.ts).
import { systemTool } from '@aibuddy/test-utils/system-tools';
const rg = systemTool('rg');

let root: string;
const engines: Record<'ripgrep' | 'javascript', NodeSandbox> = {} as never;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'aibuddy-grep-'));
  writeFileSync(join(root, 'ctx.txt'), ['one', 'two', 'MATCH a', 'three', 'four', 'five', 'MATCH b', 'six'].join('\n'));
  writeFileSync(join(root, 'long.txt'), `MATCH ${'y'.repeat(5000)}\n`);
  // The 2,000-character cut falls between the two halves of the first emoji.
  writeFileSync(join(root, 'emoji.txt'), `MATCH ${'y'.repeat(1993)}${'😀'.repeat(100)}\n`);
  writeFileSync(join(root, 'bin.dat'), Buffer.from('MATCH\0binary'));
  // A named pipe nobody writes to: opening it for reading blocks.
  execFileSync('mkfifo', [join(root, 'pipe')]);
  mkdirSync(join(root, 'many'));
  for (let i = 0; i < 1500; i++) writeFileSync(join(root, 'many', `f${i}.txt`), `needle ${i}\n`);
  engines.ripgrep = await createNodeSandbox({ type: 'node', root, isolation: 'off' });
  engines.javascript = await createNodeSandbox({ type: 'node', root, isolation: 'off', ripgrepPath: false });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

for (const engine of ['ripgrep', 'javascript'] as const) {
  describe.skipIf(engine === 'ripgrep' && rg.skip)(`grep (${engine})`, () => {
    it('reports the engine, context lines, and skips binary files', async () => {
      const result = await engines[engine].grep('MATCH', { path: 'ctx.txt', context: 1 });
      expect(result.engine).toBe(engine);
      expect(result.matches).toEqual([
        { path: 'ctx.txt', line: 3, text: 'MATCH a', before: [{ line: 2, text: 'two' }], after: [{ line: 4, text: 'three' }] },
        { path: 'ctx.txt', line: 7, text: 'MATCH b', before: [{ line: 6, text: 'five' }], after: [{ line: 8, text: 'six' }] },
      ]);
      const all = await engines[engine].grep('MATCH');
      expect(all.matches.map((m) => m.path)).not.toContain('bin.dat');
    });

    it('cuts long lines to 2,000 characters', async () => {
      const [match] = (await engines[engine].grep('MATCH', { path: 'long.txt' })).matches;
      expect(match!.text.length).toBeLessThan(2100);
      expect(match!.text.startsWith('MATCH yyy')).toBe(true);
    });

    it('never cuts a long line inside a surrogate pair', async () => {
      const [match] = (await engines[engine].grep('MATCH', { path: 'emoji.txt' })).matches;
      expect(match!.text.length).toBeGreaterThan(1990);
      expect(match!.text).not.toMatch(/\p{Cs}/u); // no lone surrogate
    });

    it('refuses a named pipe given as the path at once (reading it would block until the time bound)', async () => {
      const started = Date.now();
      await expect(engines[engine].grep('MATCH', { path: 'pipe' })).rejects.toSatisfy(
        (e: unknown) =>
          SandboxNotAFileError.isInstance(e) && /"pipe" is a FIFO \(named pipe\), not a regular file or a folder/.test(String(e)),
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      // Searching the folder skips it.
      expect((await engines[engine].grep('needle 7$', { path: '.' })).matches).toHaveLength(1);
    });

    it('refuses an invalid regular expression with an argument error', async () => {
      await expect(engines[engine].grep('(unclosed')).rejects.toSatisfy((e: unknown) => SandboxArgumentError.isInstance(e));
    });

    it('is bounded in matches', async () => {
      const result = await engines[engine].grep('needle', { path: 'many', limit: 10 });
      expect(result.matches).toHaveLength(10);
      expect(result.truncated).toBe(true);
    });

    it('is bounded in time and says truncated', async () => {
      const slow = await createNodeSandbox({
        type: 'node',
        root,
        isolation: 'off',
        searchTimeoutMs: 1,
        ...(engine === 'javascript' ? { ripgrepPath: false } : {}),
      });
      const result = await slow.grep('needle', { path: 'many', limit: 100_000 });
      expect(result.truncated).toBe(true);
      expect(result.matches.length).toBeLessThan(1500);
    });
  });
}
