import { describe, expect, it } from 'vitest';
import { ToolError } from '@aibuddy/registry';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import { createAiTools } from './create-ai-tools.js';
import { AUTO_REJECT_REASON, ConfirmationGateError, createConfirmationGate } from './confirmation-gate.js';
import type { RuntimeEvent } from './events.js';
import { removalWorkspace, runWith } from './__fixtures__/confirmation-harness.js';

const removeA = { toolCalls: [{ toolName: 'remove_file', input: { path: 'a.txt' }, id: 'c1' }] };
const neverAsk = async (): Promise<never> => {
  throw new Error('a non-interactive policy must not ask anyone');
};

describe('host policies', () => {
  it('ask is the default and asks the person', async () => {
    const ws = await removalWorkspace();
    try {
      let asked = 0;
      const gate = createConfirmationGate({ ask: async () => ((asked += 1), { approved: true }) });
      expect(gate.policy).toBe('ask');
      expect(gate.via).toBe('host');
      await runWith('generateText', {
        model: scriptedModel([removeA, { text: 'ok' }]),
        tools: createAiTools(ws.set, { confirmation: gate }),
      });
      expect(asked).toBe(1);
      expect(ws.ran).toEqual(['a.txt']);
    } finally {
      await ws.cleanup();
    }
  });

  it.each(['host', 'ai-sdk'] as const)(
    'auto-approve (CI) runs high-impact calls without asking, and still records the decision (via %s)',
    async (via) => {
      const ws = await removalWorkspace();
      try {
        const events: RuntimeEvent[] = [];
        const gate = createConfirmationGate({ policy: 'auto-approve', via, ask: neverAsk });
        const model = scriptedModel([removeA, { text: 'ok' }]);
        const out = await runWith('streamText', {
          model,
          tools: createAiTools(ws.set, { confirmation: gate, onEvent: (e) => events.push(e) }),
        });
        expect(out.approvalRequests).toEqual([]);
        expect(ws.ran).toEqual(['a.txt']);
        expect(lastToolResult(model, 'c1')?.output).toEqual({ type: 'text', value: 'removed a.txt' });
        expect(events.filter((e) => e.type.startsWith('confirm-')).map((e) => e.type)).toEqual([
          'confirm-request',
          'confirm-decision',
        ]);
        expect(events.find((e) => e.type === 'confirm-decision')).toMatchObject({
          approved: true,
          reason: 'approved by host policy (auto-approve)',
        });
      } finally {
        await ws.cleanup();
      }
    },
  );

  it.each(['host', 'ai-sdk'] as const)(
    'auto-reject (non-interactive) denies high-impact calls without asking (via %s)',
    async (via) => {
      const ws = await removalWorkspace();
      try {
        const gate = createConfirmationGate({ policy: 'auto-reject', via, ask: neverAsk });
        const model = scriptedModel([removeA, { text: 'ok' }]);
        const out = await runWith('generateText', { model, tools: createAiTools(ws.set, { confirmation: gate }) });
        expect(out.approvalRequests).toEqual([]);
        expect(ws.ran).toEqual([]);
        expect(await ws.files()).toEqual(['a.txt', 'b.txt']);
        expect(lastToolResult(model, 'c1')?.output).toEqual({ type: 'execution-denied', reason: AUTO_REJECT_REASON });
        expect(gate.interaction).toBeUndefined();
      } finally {
        await ws.cleanup();
      }
    },
  );

  it('refuses configurations that cannot work, naming the fix', () => {
    expect(() => createConfirmationGate()).toThrow(/needs an `ask` function/);
    expect(() => createConfirmationGate({ policy: 'yes' as never })).toThrow(
      /Unknown confirmation policy "yes"; use one of ask, auto-approve, auto-reject/,
    );
    expect(() => createConfirmationGate({ via: 'email' as never, ask: neverAsk })).toThrow(ConfirmationGateError);
    try {
      createConfirmationGate();
    } catch (error) {
      expect(ConfirmationGateError.isInstance(error)).toBe(true);
    }
    // Via the AI SDK, no ask function is needed.
    expect(createConfirmationGate({ via: 'ai-sdk' }).interaction).toBeUndefined();
  });

  it('via ai-sdk, a high-impact call reaching execute without an approval in the messages is refused', async () => {
    const ws = await removalWorkspace();
    try {
      const tools = createAiTools(ws.set, { confirmation: createConfirmationGate({ via: 'ai-sdk' }) });
      const error = await Promise.resolve(
        tools.remove_file!.execute!({ path: 'a.txt' }, { toolCallId: 'direct', messages: [] }),
      ).catch((e: unknown) => e);
      expect(ToolError.isInstance(error)).toBe(true);
      expect((error as ToolError).stage).toBe('authorization');
      expect(ws.ran).toEqual([]);
    } finally {
      await ws.cleanup();
    }
  });

  it('without a gate and without authorize, high-impact calls are refused (nothing decides for a person)', async () => {
    const ws = await removalWorkspace();
    try {
      const model = scriptedModel([removeA, { text: 'ok' }]);
      await runWith('generateText', { model, tools: createAiTools(ws.set) });
      expect(ws.ran).toEqual([]);
      expect(String(lastToolResult(model, 'c1')?.output.value)).toMatch(
        /^\[authorization\] remove_file: this call is high impact/,
      );
    } finally {
      await ws.cleanup();
    }
  });

  it('a plain authorize function keeps working, and gets the input digest', async () => {
    const ws = await removalWorkspace();
    try {
      const digests: string[] = [];
      const model = scriptedModel([removeA, { text: 'ok' }]);
      await runWith('generateText', {
        model,
        tools: createAiTools(ws.set, { authorize: async (request) => (digests.push(request.inputDigest), { approved: true }) }),
      });
      expect(digests).toHaveLength(1);
      expect(digests[0]).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(ws.ran).toEqual(['a.txt']);
    } finally {
      await ws.cleanup();
    }
  });
});
