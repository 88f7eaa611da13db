import { describe, expect, it } from 'vitest';
import { cutHeadTail } from './head-tail.js';

describe('cutHeadTail', () => {
  it('keeps a text that fits whole, in the head', () => {
    expect(cutHeadTail('short', { headChars: 3, tailChars: 3 })).toEqual({ head: 'short', tail: '', omitted: 0 });
  });

  it('keeps head and tail and counts the middle exactly', () => {
    const text = 'a'.repeat(10) + 'b'.repeat(80) + 'c'.repeat(10);
    expect(cutHeadTail(text, { headChars: 10, tailChars: 10 })).toEqual({
      head: 'a'.repeat(10),
      tail: 'c'.repeat(10),
      omitted: 80,
    });
  });

  it('never splits a surrogate pair at either cut', () => {
    const text = `ab😀${'x'.repeat(50)}😀cd`;
    const cut = cutHeadTail(text, { headChars: 3, tailChars: 3 });
    expect(cut.head).toBe('ab');
    expect(cut.tail).toBe('cd');
    expect(cut.head.length + cut.omitted + cut.tail.length).toBe(text.length);
  });

  it('moves cuts to nearby line breaks only when asked', () => {
    const text = `line one\nline two\n${'m'.repeat(100)}\nlast line\nend`;
    const exact = cutHeadTail(text, { headChars: 12, tailChars: 12 });
    expect(exact.head).toBe('line one\nlin');
    const lines = cutHeadTail(text, { headChars: 12, tailChars: 12, lineSlack: 0.75 });
    expect(lines.head).toBe('line one\n');
    expect(lines.tail).toBe('end');
    expect(lines.head.length + lines.omitted + lines.tail.length).toBe(text.length);
  });

  it('works on ends captured separately (the middle never kept)', () => {
    const cut = cutHeadTail({ head: 'HEAD-and-more', tail: 'more-and-TAIL', total: 1_000_000 }, { headChars: 4, tailChars: 4 });
    expect(cut).toEqual({ head: 'HEAD', tail: 'TAIL', omitted: 1_000_000 - 8 });
  });
});
