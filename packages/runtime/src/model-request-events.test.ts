import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { withModelRequestEvents } from './model-request-events.js';
import type { ModelRequestEvent } from './model-request-events.js';
import { ReplayLanguageModel } from './replay/replay-model.js';

const echo = tool({
  description: 'echo',
  inputSchema: jsonSchema<{ text: string }>({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }),
  execute: async ({ text }) => `echo:${text}`,
});
const hidden = tool({ description: 'hidden', inputSchema: jsonSchema({ type: 'object' }), execute: async () => 'no' });

describe('withModelRequestEvents', () => {
  it('reports each model call: its step, the tools offered after activeTools, the prompt as sent', async () => {
    const events: ModelRequestEvent[] = [];
    const replay = new ReplayLanguageModel({
      steps: [{ toolCalls: [{ toolName: 'echo', input: { text: 'hi' }, id: 'c1' }] }, { text: 'done' }],
    });
    const model = withModelRequestEvents(replay, (event) => events.push(event));
    await generateText({ model, tools: { echo, hidden }, activeTools: ['echo'], prompt: 'go', stopWhen: stepCountIs(3) });
    expect(events.map((e) => [e.type, e.step, e.tools])).toEqual([
      ['model-request', 0, ['echo']],
      ['model-request', 1, ['echo']],
    ]);
    // The second prompt carries the first call's result: what the provider was really sent.
    expect(JSON.stringify(events[1]!.messages)).toContain('echo:hi');
    expect(events[1]!.messages).toEqual(replay.calls[1]!.prompt);
  });
});
