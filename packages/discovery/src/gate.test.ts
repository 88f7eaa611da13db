import { describe, expect, it } from 'vitest';
import { decideDeferral } from './gate.js';

const names = (server: string, n: number) => Array.from({ length: n }, (_, i) => `${server}__t${i}`);

describe('decideDeferral', () => {
  it('keeps small servers direct, defers a server over 10, and everything over 30 in total', () => {
    expect(decideDeferral([{ server: 'a', toolNames: names('a', 10) }]).deferred).toEqual([]);
    const one = decideDeferral([
      { server: 'a', toolNames: names('a', 11) },
      { server: 'b', toolNames: names('b', 2) },
    ]);
    expect(one.servers.map((s) => s.deferred)).toEqual([true, false]);
    const all = decideDeferral([
      { server: 'a', toolNames: names('a', 10) },
      { server: 'b', toolNames: names('b', 10) },
      { server: 'c', toolNames: names('c', 10) },
    ]);
    expect(all.allDeferred).toBe(false);
    expect(all.direct).toHaveLength(30);
    const over = decideDeferral([
      { server: 'a', toolNames: names('a', 10) },
      { server: 'b', toolNames: names('b', 10) },
      { server: 'c', toolNames: names('c', 11) },
    ]);
    expect(over.allDeferred).toBe(true);
    expect(over.direct).toEqual([]);
  });

  it('alwaysLoad is never deferred, even when the total defers everything else', () => {
    const d = decideDeferral([
      { server: 'pinned', toolNames: names('p', 20), alwaysLoad: true },
      { server: 'b', toolNames: names('b', 20) },
    ]);
    expect(d.direct).toHaveLength(20);
    expect(d.deferred.map((t) => t.server)).toEqual(Array(20).fill('b'));
  });

  it('takes injected thresholds', () => {
    const d = decideDeferral([{ server: 'a', toolNames: names('a', 3) }], { perServer: 2 });
    expect(d.servers[0]).toMatchObject({ deferred: true, toolCount: 3 });
  });
});
