/** Contract: `writeFile` and `readFile` (creation, windows of lines, long lines, CRLF, binary, UTF-8). */
import { beforeEach, describe, expect, it } from 'vitest';
import { SandboxArgumentError, SandboxBinaryFileError, SandboxNotAFileError, SandboxNotFoundError } from '../errors.js';
import type { ISandbox } from '../types.js';
import { rejectionOf } from './operations.js';

/** Registers the `writeFile` / `readFile` tests; `current` is the sandbox of the running test. */
export function describeReadWriteContract(current: () => ISandbox): void {
  describe('writeFile / readFile', () => {
    let sandbox: ISandbox;
    beforeEach(() => {
      sandbox = current();
    });

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

    it('refuses content UTF-8 cannot hold (a lone surrogate) instead of writing U+FFFD; nothing is written', async () => {
      await sandbox.writeFile('kept.txt', 'kept\n');
      for (const content of ['broken \ud83d emoji', 'trailing half \udc00']) {
        const error = await rejectionOf(() => sandbox.writeFile('kept.txt', content));
        expect(SandboxArgumentError.isInstance(error)).toBe(true);
        expect((error as Error).message).toMatch(/lone surrogate/);
        expect(SandboxArgumentError.isInstance(await rejectionOf(() => sandbox.writeFile('new.txt', content)))).toBe(true);
      }
      expect((await sandbox.readFile('kept.txt')).content).toBe('kept');
      expect(SandboxNotFoundError.isInstance(await rejectionOf(() => sandbox.readFile('new.txt')))).toBe(true);
      // Nor in a name: the file on disk would have another name than the one given.
      expect(await rejectionOf(() => sandbox.writeFile('half-\ud83d.txt', 'x'))).toBeInstanceOf(Error);
      expect((await sandbox.ls('.')).entries.map((e) => e.name).filter((n) => n.startsWith('half-'))).toEqual([]);
    });

    it('refuses a file path ending in "/" (it names a folder) for every file operation; nothing is created', async () => {
      await sandbox.writeFile('plain.txt', 'plain\n');
      for (const call of [
        () => sandbox.writeFile('made/', 'x'),
        () => sandbox.writeFile('plain.txt/', 'x'),
        () => sandbox.readFile('plain.txt/'),
        () => sandbox.editFile('plain.txt/', { oldText: 'plain', newText: 'x' }),
      ]) {
        const error = await rejectionOf(call);
        expect(SandboxArgumentError.isInstance(error) || SandboxNotAFileError.isInstance(error)).toBe(true);
        expect((error as Error).message).toMatch(/ends with "\/"/);
      }
      expect((await sandbox.readFile('plain.txt')).content).toBe('plain');
      expect((await sandbox.ls('.')).entries.map((e) => e.name)).not.toContain('made');
    });

    it('keeps multi-byte characters whole', async () => {
      await sandbox.writeFile('utf8.txt', 'héllo wörld ✓ 𝄞\n');
      expect((await sandbox.readFile('utf8.txt')).content).toBe('héllo wörld ✓ 𝄞');
    });
  });
}
