import { describe, expect, it } from 'vitest';
import { decideDeferral, MCP_SERVER_DEFER_THRESHOLD, MCP_TOTAL_DEFER_THRESHOLD } from './gate.js';

// The design fixes the gate at 10 tools per server and 30 in total: changing a default fails here.
const server = (name: string, count: number) => ({
  server: name,
  toolNames: Array.from({ length: count }, (_, i) => `${name}__t${i}`),
});

describe('the 10/30 gate is pinned', () => {
  it('exports 10 and 30', () => {
    expect(MCP_SERVER_DEFER_THRESHOLD).toBe(10);
    expect(MCP_TOTAL_DEFER_THRESHOLD).toBe(30);
  });

  it('a server of 10 tools is direct, one of 11 is deferred (by default)', () => {
    expect(decideDeferral([server('a', 10)]).deferred).toHaveLength(0);
    expect(decideDeferral([server('a', 11)]).deferred).toHaveLength(11);
  });

  it('30 tools in total stay direct, 31 defer every MCP tool (by default)', () => {
    expect(decideDeferral([server('a', 10), server('b', 10), server('c', 10)]).allDeferred).toBe(false);
    const over = decideDeferral([server('a', 10), server('b', 10), server('c', 10), server('d', 1)]);
    expect(over.allDeferred).toBe(true);
    expect(over.direct).toHaveLength(0);
  });
});
