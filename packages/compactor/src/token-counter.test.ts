import { afterAll, describe, expect, it } from 'vitest';
import { createTokenCounter, MAX_SLICE_CHARS, TokenCounterClosedError, WARM_UP_SAMPLE } from './token-counter.js';
import { referenceCount, textWithTokens } from './__fixtures__/texts.js';

const counter = createTokenCounter();
afterAll(() => counter.free());

describe('createTokenCounter', () => {
  it('counts exactly like one unsliced encode, also for texts cut into slices', () => {
    const samples = [
      '',
      'hello world',
      textWithTokens(2_499),
      Array.from({ length: 3_000 }, (_, i) => JSON.stringify({ path: `src/dir${i}/file.ts`, size: i * 37 })).join('\n'),
      Array.from({ length: 2_000 }, (_, i) => `word${i}`).join(' '),
      'ünïcödé 日本語のテキスト 🚀 '.repeat(800),
      'function f(a, b) {\n  return a + b;\n}\n\n'.repeat(600),
    ];
    for (const text of samples) {
      expect(counter.count(text)).toBe(referenceCount(text));
    }
    expect(samples.some((s) => s.length > MAX_SLICE_CHARS * 3)).toBe(true);
  });

  it('builds texts of exactly 2,499 and 2,500 tokens with the real encoder', () => {
    expect(counter.count(textWithTokens(2_499))).toBe(2_499);
    expect(counter.count(textWithTokens(2_500))).toBe(2_500);
  });

  it('exits early only when the text certainly has fewer tokens than the threshold', () => {
    expect(counter.isCertainlyBelow('short', 2_500)).toBe(true);
    expect(counter.isCertainlyBelow('a'.repeat(2_499), 2_500)).toBe(true);
    expect(counter.isCertainlyBelow('a'.repeat(2_500), 2_500)).toBe(false);
    // 900 × "日" is 2,700 UTF-8 bytes: no early exit, although it has fewer characters than the threshold.
    expect(counter.isCertainlyBelow('日'.repeat(900), 2_500)).toBe(false);
    for (const text of ['x'.repeat(2_499), '🚀'.repeat(600), '\u0001'.repeat(2_000)]) {
      if (counter.isCertainlyBelow(text, 2_500)) expect(referenceCount(text)).toBeLessThan(2_500);
    }
  });

  it('survives a huge single word that a one-shot encode chokes on', async () => {
    const text = 'x'.repeat(60_000);
    const tokens = await counter.countAsync(text);
    expect(tokens).toBeGreaterThan(5_000);
    expect(tokens).toBeLessThan(10_000);
  });

  it('stops counting when the signal aborts', async () => {
    const controller = new AbortController();
    controller.abort(new Error('user stop'));
    await expect(counter.countAsync(textWithTokens(3_000), controller.signal)).rejects.toThrow('user stop');
  });

  it('warms up on a sample that runs every path of the counter, without changing later counts', () => {
    // Longer than one slice (the sliced path), with JSON, line breaks and non-ASCII text.
    expect(WARM_UP_SAMPLE.length).toBeGreaterThan(MAX_SLICE_CHARS);
    expect(WARM_UP_SAMPLE).toContain('"inputSchema"');
    expect(/[^\x00-\x7f]/.test(WARM_UP_SAMPLE)).toBe(true);
    const own = createTokenCounter();
    const text = 'ünïcödé 日本語 '.repeat(300) + JSON.stringify({ a: [1, 2, 3] });
    const before = own.count(text);
    expect(own.warmUp()).toBe(referenceCount(WARM_UP_SAMPLE));
    expect(own.count(text)).toBe(before);
    // A counter freed before its warm-up (a host closed during start-up) does nothing.
    own.free();
    expect(own.warmUp()).toBe(0);
  });

  it('refuses to count after free, with a marked error', () => {
    const own = createTokenCounter();
    own.free();
    own.free();
    let caught: unknown;
    try {
      own.count('hello');
    } catch (error) {
      caught = error;
    }
    expect(TokenCounterClosedError.isInstance(caught)).toBe(true);
  });
});
