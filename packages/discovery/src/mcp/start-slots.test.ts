import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, connect, fixture } from '../__fixtures__/mcp-helpers.js';
import { defaultStartConcurrency, StartSlots } from './start-slots.js';

afterEach(closeAll);

describe('StartSlots', () => {
  it('lets `size` holders in at a time, the rest in arrival order', async () => {
    const slots = new StartSlots(2);
    const order: string[] = [];
    const a = await slots.acquire();
    const b = await slots.acquire();
    const c = slots.acquire().then((release) => {
      order.push('c');
      return release;
    });
    const d = slots.acquire().then((release) => {
      order.push('d');
      return release;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual([]);
    b();
    b(); // a second release of one slot frees nothing more
    const releaseC = await c;
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['c']);
    a();
    (await d)();
    releaseC();
    expect(order).toEqual(['c', 'd']);
    // All free again: two at once without waiting.
    const [x, y] = await Promise.all([slots.acquire(), slots.acquire()]);
    x();
    y();
  });

  it('refuses a size that is not a positive integer, naming the option', () => {
    expect(() => new StartSlots(0)).toThrow(/maxConcurrentStarts/);
    expect(() => new StartSlots(1.5)).toThrow(/maxConcurrentStarts/);
    expect(() => new StartSlots(Number.NaN)).toThrow(/maxConcurrentStarts/);
  });

  it('defaults to twice the cores, at least 4', () => {
    expect(defaultStartConcurrency(1)).toBe(4);
    expect(defaultStartConcurrency(2)).toBe(4);
    expect(defaultStartConcurrency(8)).toBe(16);
  });
});

describe('starting many stdio servers', () => {
  // Each server holds a marker while it starts (300 ms); the most markers one of them saw is how
  // many servers were starting at once. Unbounded, all six start together and see 6.
  it('starts at most maxConcurrentStarts at a time, and every server comes up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aibuddy-starts-'));
    try {
      const servers = Object.fromEntries(
        Array.from({ length: 6 }, (_, i) => [`s${i}`, fixture('--tools=2', `--start-dir=${dir}`, '--start-ms=300')]),
      );
      const m = await connect(servers, { maxConcurrentStarts: 2 });
      expect(m.servers().map((s) => s.status)).toEqual(Array(6).fill('ready'));
      const overlaps = readdirSync(dir)
        .filter((f) => f.endsWith('.overlap'))
        .map((f) => Number(readFileSync(join(dir, f), 'utf8')));
      expect(overlaps).toHaveLength(6);
      expect(Math.max(...overlaps)).toBeLessThanOrEqual(2);
      expect(Math.max(...overlaps)).toBeGreaterThanOrEqual(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // A server's start-up timeout counts from its own start, not from the queue: the fifth of five
  // servers started one at a time waits at least 4 × 1.2 s, longer than the 3.5 s timeout, before its
  // turn. Each start may take up to 2.3 s beyond its own 1.2 s (a node process loading the SDK on a
  // loaded machine; at 0.4 s / 1.5 s the margin of 1.1 s was missed once under a concurrent CI run).
  it("counts the start-up timeout from a server's own start, not its wait in the queue", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aibuddy-starts-'));
    try {
      const servers = Object.fromEntries(
        Array.from({ length: 5 }, (_, i) => [`q${i}`, fixture('--tools=1', `--start-dir=${dir}`, '--start-ms=1200')]),
      );
      const m = await connect(servers, { maxConcurrentStarts: 1, startupTimeoutMs: 3_500 });
      expect(m.servers().map((s) => [s.name, s.status])).toEqual(Object.keys(servers).map((name) => [name, 'ready']));
      const overlaps = readdirSync(dir).filter((f) => f.endsWith('.overlap'));
      expect(overlaps.map((f) => readFileSync(join(dir, f), 'utf8'))).toEqual(Array(5).fill('1'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
