import { describe, expect, it } from 'vitest';
import { decideDeferral } from '../gate.js';
import { createRunActiveSet } from './run-active-set.js';

describe('createRunActiveSet', () => {
  it('only MCP tools whose server is down leave the set; built-in tools always stay', () => {
    const decision = decideDeferral([
      { server: 'big', toolNames: Array.from({ length: 12 }, (_, i) => `big__t${i}`) },
      { server: 'small', toolNames: ['small__a'] },
    ]);
    const down = new Set<string>();
    const set = createRunActiveSet({
      core: ['read_file'],
      decision,
      mcp: { isUnavailable: (name) => down.has(name.split('__')[0]!) },
    });
    set.markDiscovered(['big__t3']);
    expect(set.names()).toEqual(['read_file', 'tool_search', 'small__a', 'big__t3']);
    down.add('big');
    expect(set.names()).toEqual(['read_file', 'tool_search', 'small__a']);
    expect(set.has('big__t3')).toBe(false);
    down.add('read_file');
    expect(set.has('read_file')).toBe(true);
    down.clear();
    expect(set.has('big__t3')).toBe(true);
  });
});
