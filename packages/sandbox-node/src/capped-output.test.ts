import { describe, expect, it } from 'vitest';
import { CappedOutput } from './capped-output.js';

describe('CappedOutput', () => {
  it('keeps everything under the cap', () => {
    const out = new CappedOutput(100);
    out.push(Buffer.from('hello '));
    out.push(Buffer.from('world'));
    expect(out.text()).toBe('hello world');
    expect(out.truncated).toBe(false);
  });

  it('keeps head and tail within the cap and counts the rest', () => {
    const out = new CappedOutput(20);
    for (let i = 0; i < 1000; i++) out.push(Buffer.from(`${i % 10}`));
    expect(out.truncated).toBe(true);
    expect(out.total).toBe(1000);
    const text = out.text();
    expect(text.startsWith('0123456789\n')).toBe(true);
    expect(text.endsWith('\n0123456789')).toBe(true);
    expect(text).toContain('[980 bytes of output omitted]');
  });

  it('never splits a multi-byte character at either seam', () => {
    const out = new CappedOutput(11);
    out.push(Buffer.from('✓✓✓✓✓✓✓✓✓✓')); // 30 bytes, 3 per character
    const text = out.text();
    expect(text).not.toContain('\uFFFD');
    expect(text).toMatch(/^✓+\n… \[\d+ bytes of output omitted\] …\n✓+$/);
  });

  it('a single chunk larger than the cap keeps its own end as the tail', () => {
    const out = new CappedOutput(10);
    out.push(Buffer.from('abcdefghijklmnopqrstuvwxyz'));
    expect(out.text()).toMatch(/^abcde\n.*\nvwxyz$/s);
  });
});
