import { describe, expect, it } from 'vitest';
import { SandboxArgumentError, SandboxBinaryFileError, SandboxEditError } from '@aibuddy/sandbox';
import { applyEdit } from './edit-file.js';

const edit = (text: string, oldText: string, newText: string, replaceAll?: boolean) =>
  applyEdit('f.txt', Buffer.from(text), { oldText, newText, replaceAll });

describe('applyEdit', () => {
  it('reports the lines of every replacement in the new file', () => {
    const { data, result } = edit('x\ny\nx\nz\nx\n', 'x', 'a\nb', true);
    expect(data.toString()).toBe('a\nb\ny\na\nb\nz\na\nb\n');
    expect(result).toMatchObject({ replacements: 3, lines: [1, 4, 7] });
  });

  it('lists where several matches are', () => {
    expect(() => edit('a\nb\na\nb\na\n', 'a', 'c')).toThrow(/3 times .*lines 1, 3, 5/);
    try {
      edit('a\n', 'q', 'c');
    } catch (error) {
      expect(SandboxEditError.isInstance(error)).toBe(true);
    }
  });

  it('keeps CRLF when the old text is written with \\n, and mixed files are matched as they are', () => {
    expect(edit('a\r\nb\r\n', 'a\nb', 'x\ny').data.toString()).toBe('x\r\ny\r\n');
    expect(edit('a\r\nb\nc\n', 'b\nc', 'B\nC').data.toString()).toBe('a\r\nB\nC\n');
  });

  it('refuses an empty old text and binary files', () => {
    expect(() => edit('abc', '', 'x')).toThrow(SandboxArgumentError as never);
    try {
      applyEdit('f.bin', Buffer.from('a\0b'), { oldText: 'a', newText: 'b' });
      expect.unreachable();
    } catch (error) {
      expect(SandboxBinaryFileError.isInstance(error)).toBe(true);
    }
  });

  it('inserts replacement patterns literally', () => {
    expect(edit('cost: N', 'N', '$&$&$1$$').data.toString()).toBe('cost: $&$&$1$$');
  });
});
