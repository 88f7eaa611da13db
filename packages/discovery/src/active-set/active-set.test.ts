import { describe, expect, it } from 'vitest';
import { createActiveSet } from './active-set.js';
import type { HistoryMessage } from './active-set.js';

const base = () =>
  createActiveSet({ core: ['read_file', 'tool_search'], direct: ['small__a'], deferred: ['big__x', 'big__y', 'big__z'] });

describe('createActiveSet', () => {
  it('starts with core and direct tools; discovered deferred tools join', () => {
    const set = base();
    expect(set.names()).toEqual(['read_file', 'tool_search', 'small__a']);
    expect(set.markDiscovered(['big__y', 'read_file', 'unknown', 'big__y'])).toEqual(['big__y']);
    expect(set.names()).toEqual(['read_file', 'tool_search', 'small__a', 'big__y']);
    expect(set.has('big__x')).toBe(false);
  });

  it('leaves out unavailable tools without forgetting their discovery', () => {
    let up = true;
    const set = createActiveSet({
      core: ['c'],
      direct: ['s__d'],
      deferred: ['s__x'],
      isAvailable: (n) => up || !n.startsWith('s__'),
    });
    set.markDiscovered(['s__x']);
    up = false;
    expect(set.names()).toEqual(['c']);
    up = true;
    expect(set.names()).toEqual(['c', 's__d', 's__x']);
  });

  it('rebuilds from the history that survived compaction', () => {
    const history: HistoryMessage[] = [
      { role: 'user', content: 'do things' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'searching' },
          { type: 'tool-call', toolCallId: '1', toolName: 'tool_search', input: { query: 'z' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: '1',
            toolName: 'tool_search',
            output: { type: 'json', value: { query: 'z', tools: [{ name: 'big__z', description: '', inputSchema: {} }] } },
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: '2', toolName: 'big__x', input: {} }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: '2', toolName: 'big__x', output: { type: 'text', value: 'ok' } }],
      },
    ];
    const set = base();
    set.markDiscovered(['big__y']);
    expect(set.rebuildFromHistory(history)).toEqual(['big__z', 'big__x']);
    // big__y's references were compacted away: it must be found again.
    expect(set.names()).toEqual(['read_file', 'tool_search', 'small__a', 'big__z', 'big__x']);

    // A compacted tool_search result (text that is not the JSON) no longer counts.
    const compacted = history.map((m, i) =>
      i === 2
        ? {
            role: 'tool',
            content: [
              { type: 'tool-result', toolCallId: '1', toolName: 'tool_search', output: { type: 'text', value: '[compacted]' } },
            ],
          }
        : m,
    );
    expect(base().rebuildFromHistory(compacted)).toEqual(['big__x']);
    // A tool_search result kept as JSON text still counts.
    const asText = history.map((m, i) =>
      i === 2
        ? {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: '1',
                toolName: 'tool_search',
                output: { type: 'text', value: '{"tools":[{"name":"big__y"}]}' },
              },
            ],
          }
        : m,
    );
    expect(base().rebuildFromHistory(asText)).toEqual(['big__y', 'big__x']);
  });

  it('update keeps discoveries of tools that are still deferred', () => {
    const set = base();
    set.markDiscovered(['big__x', 'big__y']);
    set.update({ deferred: ['big__x', 'big__new'] });
    expect(set.discovered()).toEqual(['big__x']);
    expect(set.deferred()).toEqual(['big__x', 'big__new']);
  });

  it('a direct tool that a catalogue change defers stays offered (servers that came up later crossed the gate)', () => {
    const set = createActiveSet({ core: ['read_file'], direct: ['small__a', 'small__b'], deferred: ['big__x'] });
    set.update({ direct: [], deferred: ['small__a', 'small__b', 'big__x', 'late__y'] });
    expect(set.has('small__a')).toBe(true);
    expect(set.has('small__b')).toBe(true);
    expect(set.has('late__y')).toBe(false);
    expect(set.names()).toEqual(['read_file', 'small__a', 'small__b']);
    // Gone from the catalogue: gone from the set.
    set.update({ deferred: ['big__x', 'late__y'] });
    expect(set.has('small__a')).toBe(false);
  });

  it('answers has() without listing the set, and names() without visiting undiscovered deferred tools (issue 15)', () => {
    const deferred = Array.from({ length: 10_000 }, (_, i) => `big__t${i}`);
    const asked: string[] = [];
    const set = createActiveSet({
      core: ['read_file'],
      direct: ['small__a'],
      deferred,
      isAvailable: (n) => {
        asked.push(n);
        return true;
      },
    });
    set.markDiscovered(['big__t7', 'big__t9000']);
    asked.length = 0;
    expect(set.has('big__t9000')).toBe(true);
    expect(set.has('big__t5')).toBe(false);
    expect(set.has('read_file')).toBe(true);
    expect(asked).toEqual(['big__t9000']);
    asked.length = 0;
    expect(set.names()).toEqual(['read_file', 'small__a', 'big__t7', 'big__t9000']);
    expect(asked).toEqual(['small__a', 'big__t7', 'big__t9000']);
  });
});
