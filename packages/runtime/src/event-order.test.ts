import { describe, expect, it } from 'vitest';
import { createEventOrder } from './event-order.js';
import type { RuntimeEvent } from './events.js';

const finished = (id: string): RuntimeEvent => ({
  type: 'tool-finished',
  toolCallId: id,
  toolName: 't',
  client: 'x',
  durationMs: 1,
});
const result = (id: string): RuntimeEvent => ({
  type: 'tool-result',
  toolCallId: id,
  toolName: 't',
  client: 'x',
  model: { type: 'text', value: 'x' },
  durationMs: 1,
});
const compaction = (id: string) => ({ type: 'compaction' as const, toolCallId: id });

describe('createEventOrder', () => {
  it('shows everything at once, and logs a follow-up right after its call result', () => {
    const live: string[] = [];
    const log: string[] = [];
    const order = createEventOrder<{ type: 'compaction'; toolCallId: string }>({
      live: (e) => live.push(`${e.type}:${e.toolCallId}`),
      log: (e) => log.push(`${e.type}:${e.toolCallId}`),
    });
    order.runtime(finished('a'));
    order.followUp(compaction('a')); // ready before the model view is final
    order.runtime(finished('b'));
    order.runtime(result('b'));
    order.runtime(result('a'));
    expect(live).toEqual(['tool-finished:a', 'compaction:a', 'tool-finished:b', 'tool-result:b', 'tool-result:a']);
    expect(log).toEqual(['tool-finished:a', 'tool-finished:b', 'tool-result:b', 'tool-result:a', 'compaction:a']);
  });

  it('logs a follow-up at once when its result is already written, and flushes what a stop left held', () => {
    const log: string[] = [];
    const order = createEventOrder<{ type: 'compaction'; toolCallId: string }>({
      log: (e) => log.push(`${e.type}:${e.toolCallId}`),
    });
    order.runtime(finished('a'));
    order.runtime(result('a'));
    order.followUp(compaction('a'));
    order.runtime(finished('b'));
    order.followUp(compaction('b'));
    expect(log).toEqual(['tool-finished:a', 'tool-result:a', 'compaction:a', 'tool-finished:b']);
    order.flush();
    expect(log.at(-1)).toBe('compaction:b');
  });
});
