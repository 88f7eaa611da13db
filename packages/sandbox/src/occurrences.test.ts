import { describe, expect, it } from 'vitest';
import { occurrences } from './occurrences.js';

describe('occurrences: how editFile counts oldText', () => {
  it('finds non-overlapping matches left to right in strings', () => {
    expect(occurrences('aaaa', 'aa')).toEqual([0, 2]);
    expect(occurrences('a-b-a', 'a')).toEqual([0, 4]);
    expect(occurrences('abc', 'x')).toEqual([]);
  });
  it('counts bytes in Buffers', () => {
    expect(occurrences(Buffer.from('é\r\né\r\n'), Buffer.from('\r\n'))).toEqual([2, 6]);
  });
  it('an empty needle occurs nowhere (no endless loop)', () => {
    expect(occurrences('abc', '')).toEqual([]);
    expect(occurrences(Buffer.from('abc'), Buffer.alloc(0))).toEqual([]);
  });
});
