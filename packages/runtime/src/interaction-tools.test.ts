import { describe, expect, it } from 'vitest';
import { assertConsistent, resolveToolSet, TOOL_CONFIG_METAS, TOOL_NAME_MAP } from '@aibuddy/registry';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import { createAiTools } from './create-ai-tools.js';
import type { AuthorizationRequest } from './ai-tools-types.js';
import { createConfirmationGate } from './confirmation-gate.js';
import type { UserQuestion } from './confirmation-gate.js';
import type { RuntimeEvent } from './events.js';
import { interactionToolConfig } from './interaction-tools.js';
import { runWith } from './__fixtures__/confirmation-harness.js';
import type { RunnerName } from './__fixtures__/confirmation-harness.js';

function interactiveGate(
  answers: { question?: (q: UserQuestion) => unknown; confirm?: (r: AuthorizationRequest) => unknown } = {},
) {
  const questions: UserQuestion[] = [];
  const confirmations: AuthorizationRequest[] = [];
  const gate = createConfirmationGate({
    ask: async (request) => {
      confirmations.push(request);
      return (answers.confirm?.(request) as never) ?? { approved: true };
    },
    answerQuestion: async (question) => {
      questions.push(question);
      return (answers.question?.(question) as never) ?? 'blue';
    },
  });
  return { gate, questions, confirmations };
}

describe('the interaction tool group', () => {
  it('is one config, consistent with TOOL_CONFIG_METAS and TOOL_NAME_MAP', () => {
    expect(interactionToolConfig.key).toBe('interaction');
    expect([...interactionToolConfig.toolNames]).toEqual(['ask_user_question', 'confirm']);
    expect(() =>
      assertConsistent({
        configs: [interactionToolConfig],
        metas: { interaction: TOOL_CONFIG_METAS.interaction },
        nameMap: { ask_user_question: TOOL_NAME_MAP.ask_user_question, confirm: TOOL_NAME_MAP.confirm },
      }),
    ).not.toThrow();
  });

  it('is excluded, with a reason, when no person can answer', async () => {
    const none = await resolveToolSet({ configs: [interactionToolConfig] });
    expect(none.tools).toEqual([]);
    expect(none.excluded).toEqual([{ key: 'interaction', reason: 'no interaction in this host' }]);
    for (const policy of ['auto-approve', 'auto-reject'] as const) {
      const gate = createConfirmationGate({ policy, ask: async () => ({ approved: true }), answerQuestion: async () => 'x' });
      const set = await resolveToolSet({ configs: [interactionToolConfig], services: { interaction: gate.interaction } });
      expect(set.excluded).toEqual([{ key: 'interaction', reason: 'no interaction in this host' }]);
    }
  });

  it('is offered, with run notes, when the host injects a person', async () => {
    const { gate } = interactiveGate();
    const set = await resolveToolSet({ configs: [interactionToolConfig], services: { interaction: gate.interaction } });
    expect(set.tools.map((t) => t.definition.name)).toEqual(['ask_user_question', 'confirm']);
    expect(set.instructions[0]?.text).toMatch(/confirm/);
  });
});

describe.each(['generateText', 'streamText'] as RunnerName[])(
  'ask_user_question and confirm answered by the host, through %s',
  (runner) => {
    async function tools(gate: ReturnType<typeof interactiveGate>['gate'], events?: RuntimeEvent[]) {
      const set = await resolveToolSet({ configs: [interactionToolConfig], services: { interaction: gate.interaction } });
      return createAiTools(set, events ? { onEvent: (e) => events.push(e) } : {});
    }

    it('asks a question with choices; the host picks one', async () => {
      const { gate, questions } = interactiveGate({ question: (q) => ({ answer: '', choiceIndex: q.choices!.length - 1 }) });
      const model = scriptedModel([
        {
          toolCalls: [
            { toolName: 'ask_user_question', input: { question: 'Which database?', choices: ['sqlite', 'postgres'] }, id: 'q1' },
          ],
        },
        { text: 'postgres it is' },
      ]);
      const out = await runWith(runner, { model, tools: await tools(gate) });
      expect(out.error).toBeUndefined();
      expect(questions).toEqual([
        { toolCallId: 'q1', question: 'Which database?', choices: ['sqlite', 'postgres'], allowOther: false },
      ]);
      expect(lastToolResult(model, 'q1')?.output).toEqual({ type: 'text', value: 'The user answered: postgres' });
    });

    it('asks an open question; a free answer is passed on', async () => {
      const { gate, questions } = interactiveGate({ question: () => 'the staging cluster, not prod' });
      const model = scriptedModel([
        { toolCalls: [{ toolName: 'ask_user_question', input: { question: 'Where to deploy?' }, id: 'q2' }] },
        { text: 'ok' },
      ]);
      await runWith(runner, { model, tools: await tools(gate) });
      expect(questions[0]).toMatchObject({ question: 'Where to deploy?', allowOther: true });
      expect(lastToolResult(model, 'q2')?.output).toEqual({
        type: 'text',
        value: 'The user answered: the staging cluster, not prod',
      });
    });

    it('refuses an answer outside the choices when other answers are not allowed', async () => {
      const { gate } = interactiveGate({ question: () => 'mysql' });
      const model = scriptedModel([
        {
          toolCalls: [
            { toolName: 'ask_user_question', input: { question: 'Which database?', choices: ['sqlite', 'postgres'] }, id: 'q3' },
          ],
        },
        { text: 'ok' },
      ]);
      await runWith(runner, { model, tools: await tools(gate) });
      expect(String(lastToolResult(model, 'q3')?.output.value)).toMatch(
        /^\[execution\] ask_user_question: the answer "mysql" is not one of the choices/,
      );
    });

    it('confirm: the model asks before a risky step; the host approves or declines with a reason', async () => {
      const { gate, confirmations } = interactiveGate({
        confirm: (r) =>
          (r.input as { target: string }).target === 'main'
            ? { approved: false, reason: 'never force-push main' }
            : { approved: true },
      });
      const step = (id: string, target: string) => ({
        toolCalls: [
          {
            toolName: 'confirm',
            id,
            input: {
              action: `git push --force origin ${target}`,
              target,
              scope: 'remote repository',
              impact: 'rewrites shared history',
            },
          },
        ],
      });
      const model = scriptedModel([step('k1', 'main'), step('k2', 'feature-x'), { text: 'done' }]);
      await runWith(runner, { model, tools: await tools(gate) });
      expect(confirmations.map((r) => [r.toolCallId, r.toolName, r.target, r.scope])).toEqual([
        ['k1', 'confirm', 'main', 'remote repository'],
        ['k2', 'confirm', 'feature-x', 'remote repository'],
      ]);
      expect(lastToolResult(model, 'k1')?.output.value).toBe(
        'The user declined: never force-push main. Do not take this step; ask how to proceed if unsure.',
      );
      expect(lastToolResult(model, 'k2')?.output.value).toBe(
        'The user confirmed: git push --force origin feature-x. Take exactly this step, nothing broader.',
      );
    });

    it('a user stop while the question is open ends the wait', async () => {
      let sawAbort = false;
      const gate = createConfirmationGate({
        ask: async () => ({ approved: true }),
        answerQuestion: (_q, signal) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener('abort', () => {
              sawAbort = true;
              reject(new Error('stopped'));
            });
          }),
      });
      const events: RuntimeEvent[] = [];
      const stop = new AbortController();
      const model = scriptedModel([
        { toolCalls: [{ toolName: 'ask_user_question', input: { question: 'Sure?' }, id: 'q4' }] },
        { text: 'never' },
      ]);
      setTimeout(() => stop.abort(), 30);
      const out = await runWith(runner, { model, abortSignal: stop.signal, tools: await tools(gate, events) });
      expect(out.error).toBeDefined();
      expect(sawAbort).toBe(true);
      expect(events.find((e) => e.type === 'tool-result')).toMatchObject({ toolCallId: 'q4', error: { stage: 'execution' } });
    });
  },
);
