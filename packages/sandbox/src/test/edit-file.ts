/** Contract: `editFile` (exactly one match, refusals that say where, `replaceAll`, literal text, CRLF). */
import { beforeEach, describe, expect, it } from 'vitest';
import { SandboxArgumentError, SandboxEditError, SandboxNotFoundError } from '../errors.js';
import type { ISandbox } from '../types.js';
import { rejectionOf } from './operations.js';

/** Registers the `editFile` tests; `current` is the sandbox of the running test. */
export function describeEditFileContract(current: () => ISandbox): void {
  describe('editFile', () => {
    let sandbox: ISandbox;
    beforeEach(() => {
      sandbox = current();
    });

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

    it('refuses a lone surrogate in the old or new text; the file is unchanged', async () => {
      await sandbox.writeFile('e.txt', 'smile: \u{1F600}\n');
      for (const edit of [
        { oldText: 'smile', newText: 'half \ud83d' },
        { oldText: '\ud83d', newText: 'x' },
      ]) {
        const error = await rejectionOf(() => sandbox.editFile('e.txt', edit));
        expect(SandboxArgumentError.isInstance(error)).toBe(true);
        expect((error as Error).message).toMatch(/lone surrogate/);
      }
      expect((await sandbox.readFile('e.txt')).content).toBe('smile: \u{1F600}');
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
}
