/**
 * Contract: confinement. Escaping paths are refused by every path-taking operation; with `exec`,
 * links a command makes to outside folders are refused too, also while a command races the reads.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { SandboxError, SandboxPathError } from '../errors.js';
import type { ISandbox } from '../types.js';
import { ESCAPING_PATHS, rejectionOf } from './operations.js';

/** Registers the confinement tests; `withExec` adds those that need commands. */
export function describeConfinementContract(current: () => ISandbox, withExec: boolean): void {
  describe('confinement', () => {
    let sandbox: ISandbox;
    beforeEach(() => {
      sandbox = current();
    });

    for (const bad of ESCAPING_PATHS) {
      it(`refuses ${JSON.stringify(bad)} in every path-taking operation`, async () => {
        const attempts: [string, () => Promise<unknown>][] = [
          ['readFile', () => sandbox.readFile(bad)],
          ['writeFile', () => sandbox.writeFile(bad === '/' ? '/contract-escape.txt' : bad, 'escape')],
          ['editFile', () => sandbox.editFile(bad, { oldText: 'root', newText: 'x' })],
          ['ls', () => sandbox.ls(bad)],
          ['glob', () => sandbox.glob('*', { path: bad })],
          ['grep', () => sandbox.grep('root', { path: bad })],
        ];
        if (withExec) attempts.push(['exec', () => sandbox.exec('true', { cwd: bad })]);
        for (const [name, run] of attempts) {
          const error = await rejectionOf(run);
          expect(SandboxPathError.isInstance(error), `${name}(${JSON.stringify(bad)}) → ${String(error)}`).toBe(true);
        }
      });
    }
  });

  if (withExec) {
    describe('confinement against links made by commands', () => {
      let sandbox: ISandbox;
      beforeEach(() => {
        sandbox = current();
      });

      it('a folder a command replaced by a symlink to an outside folder is refused by every file operation', async () => {
        await sandbox.writeFile('d/inside.txt', 'inside\n');
        const made = await sandbox.exec('rm -rf d && ln -s /etc d && ln -s /aibuddy-contract-nowhere gone && echo ok');
        expect(made.stdout).toBe('ok\n');
        const attempts: [string, () => Promise<unknown>][] = [
          ['readFile', () => sandbox.readFile('d/passwd')],
          ['ls', () => sandbox.ls('d')],
          ['glob', () => sandbox.glob('*', { path: 'd' })],
          ['grep', () => sandbox.grep('root', { path: 'd' })],
          ['writeFile', () => sandbox.writeFile('gone/x.txt', 'escape')],
          ['editFile', () => sandbox.editFile('d/passwd', { oldText: 'root', newText: 'x' })],
          ['exec', () => sandbox.exec('true', { cwd: 'd' })],
        ];
        for (const [name, run] of attempts) {
          const error = await rejectionOf(run);
          expect(SandboxPathError.isInstance(error), `${name} → ${String(error)}`).toBe(true);
        }
        // Walks from the root never go through the link either.
        expect(JSON.stringify(await sandbox.grep('root:'))).not.toMatch(/root:[^:]*:0:0/);
        expect((await sandbox.glob('**/passwd')).files).toEqual([]);
      });

      it('symlinks that stay inside the root keep working', async () => {
        await sandbox.writeFile('real/sub/f.txt', 'linked\n');
        expect((await sandbox.exec('ln -s real alias && echo ok')).stdout).toBe('ok\n');
        expect((await sandbox.readFile('alias/sub/f.txt')).content).toBe('linked');
        expect((await sandbox.ls('alias/sub')).entries.map((e) => e.name)).toEqual(['f.txt']);
        await sandbox.writeFile('alias/sub/new.txt', 'through the link');
        expect((await sandbox.readFile('real/sub/new.txt')).content).toBe('through the link');
      });

      it('reads racing a command that swaps a folder for a symlink to an outside folder return nothing from outside', async () => {
        await sandbox.writeFile('d/passwd', 'inside\n');
        await sandbox.writeFile('d/hostname', 'inside\n');
        // The command swaps d <-> a symlink to /etc for a while; the reads run meanwhile.
        const racing = sandbox.exec(
          'end=$((SECONDS+2)); while [ $SECONDS -lt $end ]; do mv d d.away; ln -s /etc d; rm d; mv d.away d; done; echo raced',
          { timeoutMs: 20_000 },
        );
        const results: unknown[] = [];
        for (let round = 0; round < 40; round++) {
          const batch = await Promise.all(
            [
              () => sandbox.readFile('d/passwd'),
              () => sandbox.readFile('d/hostname'),
              () => sandbox.ls('d'),
              () => sandbox.grep('root', { path: 'd' }),
              () => sandbox.glob('*', { path: 'd' }),
            ].map((run) => run().catch((error: unknown) => error)),
          );
          results.push(...batch);
        }
        expect((await racing).stdout).toBe('raced\n');
        for (const result of results) {
          if (result instanceof Error) expect(SandboxError.isInstance(result), String(result)).toBe(true);
          const text = JSON.stringify(result instanceof Error ? result.message : result);
          expect(text).not.toMatch(/root:[^:]*:0:0/);
          expect(text).not.toMatch(/"(shadow|group|fstab|os-release)"/);
        }
      });
    });
  }
}
