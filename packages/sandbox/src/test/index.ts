/**
 * The shared adapter contract suite. Every adapter runs it from its own test file and adds only
 * its own extra tests (the unstorage `testDriver` pattern):
 *
 * ```ts
 * import { describeSandboxContract } from '@aibuddy/sandbox/test';
 * describeSandboxContract({ name: 'node', create: () => createNodeSandbox({ type: 'node', root: tmp() }) });
 * ```
 *
 * It only uses the public `ISandbox` API, so it runs against remote backends too.
 * @packageDocumentation
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SandboxAbortedError,
  SandboxBinaryFileError,
  SandboxEditError,
  SandboxError,
  SandboxNotAFileError,
  SandboxNotFoundError,
  SandboxPathError,
  SandboxUnavailableError,
} from '../errors.js';
import type { ISandbox } from '../types.js';

/** What the adapter under test can do; the suite checks the rest is refused properly. */
export interface SandboxContractCapabilities {
  /** False for placeholder backends: every operation must reject with `SandboxUnavailableError`. */
  available: boolean;
  /** Whether `exec` runs commands (default true when available). */
  exec?: boolean;
}

/** Options of `describeSandboxContract`. */
export interface SandboxContractOptions {
  /** Name shown in the test report. */
  name: string;
  /** Creates a fresh sandbox over an empty workspace; called before every test. */
  create: () => ISandbox | Promise<ISandbox>;
  /** Removes what `create` made (after `close`); called after every test. */
  destroy?: (sandbox: ISandbox) => void | Promise<void>;
  /** What the backend supports (default: available, with exec). */
  capabilities?: SandboxContractCapabilities;
}

/** Every operation of `ISandbox`, called with harmless arguments and extra options. */
export const SANDBOX_OPERATIONS: readonly {
  name: 'ls' | 'readFile' | 'writeFile' | 'editFile' | 'glob' | 'grep' | 'exec';
  call: (sandbox: ISandbox, options: { signal?: AbortSignal }) => Promise<unknown>;
}[] = [
  { name: 'ls', call: (s, o) => s.ls('.', o) },
  { name: 'readFile', call: (s, o) => s.readFile('contract.txt', o) },
  { name: 'writeFile', call: (s, o) => s.writeFile('written-by-contract.txt', 'x', o) },
  { name: 'editFile', call: (s, o) => s.editFile('contract.txt', { oldText: 'a', newText: 'b' }, o) },
  { name: 'glob', call: (s, o) => s.glob('**/*', o) },
  { name: 'grep', call: (s, o) => s.grep('a', o) },
  { name: 'exec', call: (s, o) => s.exec('touch made-by-contract', o) },
];

/** Paths that must be refused with `SandboxPathError` by every path-taking operation. */
export const ESCAPING_PATHS: readonly string[] = [
  '..',
  '../outside.txt',
  'a/../../outside.txt',
  './../outside.txt',
  '/etc/passwd',
  '/',
  'file\0.txt',
  '~/outside.txt',
  '~',
  'C:\\Windows\\win.ini',
  'C:/Windows/win.ini',
  '\\\\server\\share\\file',
  '//server/share/file',
];

async function rejectionOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the operation to reject, but it resolved');
}

function describeUnavailable(options: SandboxContractOptions): void {
  describe(`sandbox contract: ${options.name} (unavailable backend)`, () => {
    let sandbox: ISandbox;
    beforeEach(async () => {
      sandbox = await options.create();
    });
    afterEach(async () => {
      await options.destroy?.(sandbox);
    });

    for (const op of SANDBOX_OPERATIONS) {
      it(`${op.name} returns a promise that rejects with SandboxUnavailableError (never throws synchronously)`, async () => {
        let promise: Promise<unknown> | undefined;
        expect(() => {
          promise = op.call(sandbox, {});
        }).not.toThrow();
        expect(promise).toBeInstanceOf(Promise);
        const error = await rejectionOf(() => promise!);
        expect(SandboxUnavailableError.isInstance(error)).toBe(true);
        expect(String((error as Error).message)).toMatch(/node/);
      });
    }

    it('says which type it is', () => {
      expect(['daytona', 'e2b', 'node']).toContain(sandbox.type);
    });
  });
}

function describeAvailable(options: SandboxContractOptions): void {
  const withExec = options.capabilities?.exec !== false;
  describe(`sandbox contract: ${options.name}`, () => {
    let sandbox: ISandbox;
    beforeEach(async () => {
      sandbox = await options.create();
    });
    afterEach(async () => {
      await sandbox.close?.();
      await options.destroy?.(sandbox);
    });

    describe('writeFile / readFile', () => {
      it('writes (creating parent folders) and reads back', async () => {
        const first = await sandbox.writeFile('a/b/c.txt', 'one\ntwo\n');
        expect(first).toMatchObject({ path: 'a/b/c.txt', size: 8, created: true });
        const second = await sandbox.writeFile('a/b/c.txt', 'one\ntwo\nthree');
        expect(second.created).toBe(false);
        const read = await sandbox.readFile('a/b/c.txt');
        expect(read).toMatchObject({ content: 'one\ntwo\nthree', startLine: 1, endLine: 3, totalLines: 3, truncated: false });
        expect(read.nextOffset).toBeUndefined();
      });

      it('accepts an absolute path inside the root', async () => {
        await sandbox.writeFile('inside.txt', 'x');
        const read = await sandbox.readFile(`${sandbox.root.replace(/\/$/, '')}/inside.txt`);
        expect(read.content).toBe('x');
      });

      it('reads a window of lines and says where to continue', async () => {
        const lines = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`);
        await sandbox.writeFile('many.txt', `${lines.join('\n')}\n`);
        const window = await sandbox.readFile('many.txt', { offset: 11, limit: 5 });
        expect(window.content).toBe('line 11\nline 12\nline 13\nline 14\nline 15');
        expect(window).toMatchObject({ startLine: 11, endLine: 15, truncated: true, nextOffset: 16 });
        const last = await sandbox.readFile('many.txt', { offset: 48 });
        expect(last).toMatchObject({ content: 'line 48\nline 49\nline 50', truncated: false, totalLines: 50 });
      });

      it('cuts lines longer than 2,000 characters with a marker and lists them', async () => {
        await sandbox.writeFile('long.txt', `short\n${'x'.repeat(5000)}\nend`);
        const read = await sandbox.readFile('long.txt');
        expect(read.longLinesCut).toEqual([2]);
        const second = read.content.split('\n')[1]!;
        expect(second.startsWith('x'.repeat(2000))).toBe(true);
        expect(second).not.toContain('x'.repeat(2001));
        expect(second).toMatch(/cut/);
        expect(read.content.split('\n')[2]).toBe('end');
      });

      it('reports CRLF files and strips the CR from lines', async () => {
        await sandbox.writeFile('crlf.txt', 'a\r\nb\r\n');
        const read = await sandbox.readFile('crlf.txt');
        expect(read.lineEnding).toBe('\r\n');
        expect(read.content).toBe('a\nb');
      });

      it('refuses binary files, folders and missing files with typed errors', async () => {
        await sandbox.writeFile('bin.dat', 'abc\u0000def');
        expect(SandboxBinaryFileError.isInstance(await rejectionOf(() => sandbox.readFile('bin.dat')))).toBe(true);
        await sandbox.writeFile('dir/x.txt', 'x');
        expect(SandboxNotAFileError.isInstance(await rejectionOf(() => sandbox.readFile('dir')))).toBe(true);
        expect(SandboxNotFoundError.isInstance(await rejectionOf(() => sandbox.readFile('missing.txt')))).toBe(true);
      });

      it('keeps multi-byte characters whole', async () => {
        await sandbox.writeFile('utf8.txt', 'héllo wörld ✓ 𝄞\n');
        expect((await sandbox.readFile('utf8.txt')).content).toBe('héllo wörld ✓ 𝄞');
      });
    });

    describe('editFile', () => {
      it('replaces text that occurs exactly once', async () => {
        await sandbox.writeFile('e.txt', 'alpha\nbeta\ngamma\n');
        const result = await sandbox.editFile('e.txt', { oldText: 'beta', newText: 'BETA' });
        expect(result).toMatchObject({ replacements: 1, lines: [2] });
        expect((await sandbox.readFile('e.txt')).content).toBe('alpha\nBETA\ngamma');
      });

      it('refuses zero matches and several matches, saying how many and where', async () => {
        await sandbox.writeFile('e.txt', 'x = 1\ny = 2\nx = 1\n');
        const none = await rejectionOf(() => sandbox.editFile('e.txt', { oldText: 'z = 3', newText: '' }));
        expect(SandboxEditError.isInstance(none)).toBe(true);
        expect((none as Error).message).toMatch(/0 matches|not found/);
        const many = await rejectionOf(() => sandbox.editFile('e.txt', { oldText: 'x = 1', newText: 'x = 9' }));
        expect(SandboxEditError.isInstance(many)).toBe(true);
        expect((many as Error).message).toMatch(/2 times/);
        expect((many as Error).message).toMatch(/1, 3/);
        expect((await sandbox.readFile('e.txt')).content).toBe('x = 1\ny = 2\nx = 1');
      });

      it('replaces every occurrence with replaceAll', async () => {
        await sandbox.writeFile('e.txt', 'a-a-a');
        expect((await sandbox.editFile('e.txt', { oldText: 'a', newText: 'b', replaceAll: true })).replacements).toBe(3);
        expect((await sandbox.readFile('e.txt')).content).toBe('b-b-b');
      });

      it('inserts the new text literally ($& and $1 are not special)', async () => {
        await sandbox.writeFile('e.txt', 'price: X\n');
        await sandbox.editFile('e.txt', { oldText: 'X', newText: "$& $1 $$ $' $`" });
        expect((await sandbox.readFile('e.txt')).content).toBe("price: $& $1 $$ $' $`");
      });

      it('keeps CRLF line endings', async () => {
        await sandbox.writeFile('crlf.txt', 'one\r\ntwo\r\nthree\r\n');
        await sandbox.editFile('crlf.txt', { oldText: 'one\ntwo', newText: 'ONE\nTWO\nplus' });
        const read = await sandbox.readFile('crlf.txt');
        expect(read.lineEnding).toBe('\r\n');
        expect(read.content).toBe('ONE\nTWO\nplus\nthree');
        expect(read.size).toBe('ONE\r\nTWO\r\nplus\r\nthree\r\n'.length);
      });

      it('refuses a missing file', async () => {
        expect(
          SandboxNotFoundError.isInstance(await rejectionOf(() => sandbox.editFile('nope.txt', { oldText: 'a', newText: 'b' }))),
        ).toBe(true);
      });
    });

    describe('ls / glob / grep', () => {
      beforeEach(async () => {
        await sandbox.writeFile('src/a.ts', 'export const a = 1; // TODO one\n');
        await sandbox.writeFile('src/b.ts', 'export const b = 2;\n// todo two\n');
        await sandbox.writeFile('src/deep/c.ts', 'const c = "TODO three";\n');
        await sandbox.writeFile('README.md', '# readme\n');
      });

      it('ls lists sorted entries with types and sizes, capped with truncated', async () => {
        const root = await sandbox.ls('.');
        expect(root.entries.map((e) => e.name)).toEqual(['README.md', 'src']);
        expect(root.entries[0]).toMatchObject({ type: 'file', size: 9 });
        expect(root.entries[1]).toMatchObject({ type: 'dir' });
        expect(root.truncated).toBe(false);
        const capped = await sandbox.ls('src', { limit: 1 });
        expect(capped.entries).toHaveLength(1);
        expect(capped.truncated).toBe(true);
        expect(SandboxNotAFileError.isInstance(await rejectionOf(() => sandbox.ls('README.md')))).toBe(true);
      });

      it('glob finds files by pattern, relative to the root, capped', async () => {
        expect((await sandbox.glob('**/*.ts')).files).toEqual(['src/a.ts', 'src/b.ts', 'src/deep/c.ts']);
        expect((await sandbox.glob('*.md')).files).toEqual(['README.md']);
        // A pattern without "/" matches names at any depth below `path` (ripgrep --glob meaning).
        expect((await sandbox.glob('*.ts', { path: 'src' })).files).toEqual(['src/a.ts', 'src/b.ts', 'src/deep/c.ts']);
        expect((await sandbox.glob('./*.ts', { path: 'src' })).files).toEqual(['src/a.ts', 'src/b.ts']);
        const capped = await sandbox.glob('**/*.ts', { limit: 2 });
        expect(capped.files).toHaveLength(2);
        expect(capped.truncated).toBe(true);
      });

      it('grep finds lines by regular expression, with options, capped', async () => {
        const all = await sandbox.grep('TODO');
        expect(all.matches.map((m) => `${m.path}:${m.line}`)).toEqual(['src/a.ts:1', 'src/deep/c.ts:1']);
        const ci = await sandbox.grep('todo', { ignoreCase: true, path: 'src' });
        expect(ci.matches).toHaveLength(3);
        expect(ci.matches[1]).toMatchObject({ path: 'src/b.ts', line: 2, text: '// todo two' });
        const capped = await sandbox.grep('todo', { ignoreCase: true, limit: 2 });
        expect(capped.matches).toHaveLength(2);
        expect(capped.truncated).toBe(true);
        const md = await sandbox.grep('readme', { glob: '*.md' });
        expect(md.matches.map((m) => m.path)).toEqual(['README.md']);
      });

      it('grep treats a pattern that looks like an option as a pattern', async () => {
        await sandbox.writeFile('opt.txt', 'a --files b\n');
        const result = await sandbox.grep('--files');
        expect(result.matches.map((m) => m.path)).toEqual(['opt.txt']);
      });
    });

    describe('confinement', () => {
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

    describe('abort', () => {
      for (const op of SANDBOX_OPERATIONS) {
        if (op.name === 'exec' && !withExec) continue;
        it(`${op.name} with an already aborted signal rejects and does nothing`, async () => {
          await sandbox.writeFile('contract.txt', 'a');
          const error = await rejectionOf(() => op.call(sandbox, { signal: AbortSignal.abort() }));
          expect(SandboxAbortedError.isInstance(error)).toBe(true);
          expect((await sandbox.readFile('contract.txt')).content).toBe('a');
          const names = (await sandbox.ls('.')).entries.map((e) => e.name);
          expect(names).toEqual(['contract.txt']);
        });
      }
    });

    if (withExec) {
      describe('exec', () => {
        it('runs a command in the root and returns its output', async () => {
          await sandbox.writeFile('here.txt', 'x');
          const result = await sandbox.exec('ls; echo err >&2');
          expect(result).toMatchObject({ exitCode: 0, timedOut: false, truncated: false });
          expect(result.stdout).toBe('here.txt\n');
          expect(result.stderr).toBe('err\n');
          expect(result.durationMs).toBeGreaterThanOrEqual(0);
        });

        it('returns a non-zero exit as a result', async () => {
          const result = await sandbox.exec('echo out; exit 3');
          expect(result.exitCode).toBe(3);
          expect(result.stdout).toBe('out\n');
        });

        it('honours cwd and env, and closes stdin', async () => {
          await sandbox.writeFile('sub/x.txt', 'x');
          const result = await sandbox.exec('pwd; echo "$GREETING"; cat; echo done', { cwd: 'sub', env: { GREETING: 'hi' } });
          expect(result.stdout.split('\n').slice(1)).toEqual(['hi', 'done', '']);
          expect(result.stdout.split('\n')[0]).toMatch(/\/sub$/);
        });

        it('streams output live', async () => {
          const chunks: string[] = [];
          const result = await sandbox.exec('printf "a\\n"; sleep 0.05; printf "b\\n"', { onStdout: (c) => chunks.push(c) });
          expect(chunks.join('')).toBe('a\nb\n');
          expect(result.stdout).toBe('a\nb\n');
        });

        it('stops a command at its timeout and says so', async () => {
          const started = Date.now();
          const result = await sandbox.exec('sleep 20', { timeoutMs: 200 });
          expect(result.timedOut).toBe(true);
          expect(result.exitCode).not.toBe(0);
          expect(Date.now() - started).toBeLessThan(15_000);
        });

        it('stops a command when aborted', async () => {
          const controller = new AbortController();
          setTimeout(() => controller.abort(), 100);
          const result = await sandbox.exec('sleep 20', { signal: controller.signal, timeoutMs: 20_000 });
          expect(result.aborted).toBe(true);
          expect(result.timedOut).toBe(false);
        });
      });
    }

    it('every failure is a SandboxError with a code', async () => {
      const error = await rejectionOf(() => sandbox.readFile('../x'));
      expect(SandboxError.isInstance(error)).toBe(true);
      expect((error as SandboxError).code).toBe('PATH_ESCAPE');
    });
  });
}

/**
 * Registers the contract tests for one adapter. With `capabilities.available: false` it checks
 * that every operation rejects with `SandboxUnavailableError` (as a rejected promise, never a
 * synchronous throw); otherwise it checks behaviour, limits, confinement and abort.
 */
export function describeSandboxContract(options: SandboxContractOptions): void {
  if (options.capabilities?.available === false) describeUnavailable(options);
  else describeAvailable(options);
}
