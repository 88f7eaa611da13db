import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, inputDigest } from './input-digest.js';

describe('inputDigest', () => {
  it('ignores key order and differs for any change of value', () => {
    expect(canonicalJson({ b: 1, a: [1, { d: 'x', c: null }] })).toBe('{"a":[1,{"c":null,"d":"x"}],"b":1}');
    expect(inputDigest({ b: 1, a: 2 })).toBe(inputDigest({ a: 2, b: 1 }));
    expect(inputDigest({ command: 'rm -rf build' })).not.toBe(inputDigest({ command: 'rm -rf build/' }));
    expect(inputDigest({ n: 1 })).not.toBe(inputDigest({ n: '1' }));
  });

  it('is base64url SHA-256 of the canonical JSON (the form the AI SDK signs)', () => {
    const expected = createHash('sha256').update('{"path":"a.txt"}').digest('base64url');
    expect(inputDigest({ path: 'a.txt' })).toBe(expected);
  });
});
