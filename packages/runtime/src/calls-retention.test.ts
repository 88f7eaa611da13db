import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, resolveToolSet } from '@aibuddy/registry';
import { createAiTools, RETAINED_FINISHED_CALLS } from './create-ai-tools.js';

// The runtime keeps a record per call (raw output, model view) until the SDK has asked for the
// call's view; afterwards only the latest RETAINED_FINISHED_CALLS stay, so a long run's raw
// outputs are not all held for the life of the tool map.
describe('finished calls are not held forever', () => {
  it('forgets a call once RETAINED_FINISHED_CALLS later calls have been viewed', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Echoes.',
      inputSchema: z.object({ n: z.number() }),
      execute: ({ n }) => `raw ${n}`,
    });
    const set = await resolveToolSet({ configs: [{ key: 'e', toolNames: ['echo'], create: () => [echo] }] });
    // The hook marks views it decided: a remembered call gets the marked view, a forgotten one the default.
    const tools = createAiTools(set, {
      heartbeatIntervalMs: 0,
      hooks: { resolveModelOutput: ({ toolCallId }) => ({ type: 'text', value: `kept ${toolCallId}` }) },
    });
    const run = async (id: string, n: number) => {
      const output = await tools.echo!.execute!({ n }, { toolCallId: id, messages: [] });
      return tools.echo!.toModelOutput!({ toolCallId: id, input: { n }, output });
    };
    expect(await run('c0', 0)).toEqual({ type: 'text', value: 'kept c0' });
    for (let i = 1; i < RETAINED_FINISHED_CALLS; i++) await run(`c${i}`, i);
    // Still within the window: c0 is remembered.
    expect(await tools.echo!.toModelOutput!({ toolCallId: 'c0', input: { n: 0 }, output: 'raw 0' })).toEqual({
      type: 'text',
      value: 'kept c0',
    });
    await run('late', 99);
    await run('later', 100);
    expect(await tools.echo!.toModelOutput!({ toolCallId: 'c1', input: { n: 1 }, output: 'raw 1' })).toEqual({
      type: 'text',
      value: 'raw 1',
    });
  });
});
