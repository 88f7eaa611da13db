/** Contract: `ls`, `glob` and `grep` (sorting, types and sizes, patterns relative to the root, caps). */
import { beforeEach, describe, expect, it } from 'vitest';
import { SandboxNotAFileError } from '../errors.js';
import type { ISandbox } from '../types.js';
import { rejectionOf } from './operations.js';

/** Registers the `ls` / `glob` / `grep` tests; `current` is the sandbox of the running test. */
export function describeSearchContract(current: () => ISandbox): void {
  describe('ls / glob / grep', () => {
    let sandbox: ISandbox;
    beforeEach(async () => {
      sandbox = current();
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
}
