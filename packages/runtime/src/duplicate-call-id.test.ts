// A model (or a provider) that gives two calls of one step the same id: everything keyed by the
// call id (the person's decision, the model's view of a result, the client's events, the stored
// raw output) would mix the two calls up. The first call claims the id; the other is refused
// before anything runs or anyone is asked.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, resolveToolSet } from '@aibuddy/registry';
import { scriptedModel, toolResultsIn } from '@aibuddy/test-utils';
import { createAiTools } from './create-ai-tools.js';
import { createConfirmationGate } from './confirmation-gate.js';
import type { RuntimeEvent } from './events.js';
import { removalWorkspace, runWith, withApprovalResponses } from './__fixtures__/confirmation-harness.js';
import type { RunnerName } from './__fixtures__/confirmation-harness.js';

const runners: RunnerName[] = ['generateText', 'streamText'];
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function workspace() {
  const ws = await removalWorkspace();
  cleanups.push(ws.cleanup);
  return ws;
}

const sameIdTwice = {
  toolCalls: [
    { toolName: 'remove_file', input: { path: 'a.txt' }, id: 'c1' },
    { toolName: 'remove_file', input: { path: 'b.txt' }, id: 'c1' },
  ],
};

function resultsOf(model: ReturnType<typeof scriptedModel>) {
  return toolResultsIn(model.calls.at(-1)?.prompt ?? []).map((r) => r.output);
}

describe.each(runners)('two calls with one id in a step, through %s', (runner) => {
  it('host asks: the second call is refused before the person is asked; the model is told which ran', async () => {
    const ws = await workspace();
    const asked: string[] = [];
    const events: RuntimeEvent[] = [];
    const gate = createConfirmationGate({
      ask: async (request) => {
        asked.push(request.target);
        return request.target === 'a.txt' ? { approved: true } : { approved: false, reason: 'keep b.txt' };
      },
    });
    const model = scriptedModel([sameIdTwice, { text: 'done' }]);
    const out = await runWith(runner, {
      model,
      tools: createAiTools(ws.set, { confirmation: gate, onEvent: (e) => events.push(e) }),
    });
    expect(out.error).toBeUndefined();
    expect(asked).toEqual(['a.txt']);
    expect(ws.ran).toEqual(['a.txt']);
    expect(await ws.files()).toEqual(['b.txt']);
    const results = resultsOf(model);
    expect(results).toHaveLength(2);
    expect(results).toContainEqual({ type: 'text', value: 'removed a.txt' });
    // Never "removed a.txt" twice: the refused call gets its own error.
    expect(results.filter((r) => r.type === 'error-text').map((r) => String(r.value))).toEqual([
      expect.stringMatching(/^\[parameters\] remove_file: another call of this step already has the id c1/),
    ]);
    expect(events.filter((e) => e.type === 'tool-result' && e.error?.stage === 'parameters')).toHaveLength(1);
  });

  it('a tool without impact: each call keeps its own result', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'Returns its text.',
      inputSchema: z.object({ text: z.string() }),
      execute: async ({ text }) => `echo ${text}`,
    });
    const set = await resolveToolSet({ configs: [{ key: 'echo', toolNames: ['echo'], create: () => [echo] }] });
    const model = scriptedModel([
      {
        toolCalls: [
          { toolName: 'echo', input: { text: 'one' }, id: 'c1' },
          { toolName: 'echo', input: { text: 'two' }, id: 'c1' },
        ],
      },
      { text: 'done' },
    ]);
    const out = await runWith(runner, { model, tools: createAiTools(set) });
    expect(out.error).toBeUndefined();
    const results = resultsOf(model);
    expect(results.filter((r) => r.type === 'text')).toHaveLength(1);
    expect(results.filter((r) => r.type === 'error-text')).toHaveLength(1);
  });

  it('the same id in a later step is a new call and runs', async () => {
    const ws = await workspace();
    const gate = createConfirmationGate({ ask: async () => ({ approved: true }) });
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'remove_file', input: { path: 'a.txt' }, id: 'call_0' }] },
      { toolCalls: [{ toolName: 'remove_file', input: { path: 'b.txt' }, id: 'call_0' }] },
      { text: 'done' },
    ]);
    const out = await runWith(runner, { model, tools: createAiTools(ws.set, { confirmation: gate }) });
    expect(out.error).toBeUndefined();
    expect(ws.ran).toEqual(['a.txt', 'b.txt']);
  });

  it('through AI SDK approvals: approving any request of the pair never runs the call the person was not shown', async () => {
    for (const pick of [0, -1] as const) {
      const ws = await workspace();
      const events: RuntimeEvent[] = [];
      const gate = createConfirmationGate({ via: 'ai-sdk' });
      const tools = () => createAiTools(ws.set, { confirmation: gate, onEvent: (e) => events.push(e) });
      const first = await runWith(runner, { model: scriptedModel([sameIdTwice]), prompt: 'remove', tools: tools() });
      expect(first.error).toBeUndefined();
      // The person is shown one request, for the first call.
      expect(events.filter((e) => e.type === 'confirm-request').map((e) => e.target)).toEqual(['a.txt']);
      const history = [{ role: 'user' as const, content: 'remove' }, ...first.messages];
      const approvalId = first.approvalRequests.at(pick)!.approvalId;
      await runWith(runner, {
        model: scriptedModel([{ text: 'ok' }]),
        messages: withApprovalResponses(history, [{ approvalId, approved: true }]),
        tools: tools(),
      });
      expect(ws.ran).not.toContain('b.txt');
      expect(await ws.files()).toContain('b.txt');
    }
  });
});
