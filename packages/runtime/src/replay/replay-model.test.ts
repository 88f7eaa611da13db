import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReplayExhaustedError, ReplayLanguageModel } from './replay-model.js';
import { loadReplayScript, parseReplayScript, ReplayScriptError } from './replay-script.js';

const echo = tool({
  description: 'echo',
  inputSchema: jsonSchema<{ text: string }>({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }),
  execute: async ({ text }) => `echo:${text}`,
});

const script = {
  steps: [
    { text: 'calling', toolCalls: [{ toolName: 'echo', input: { text: 'hi' }, id: 'c1' }] },
    { text: 'finished: all good' },
  ],
};

describe('ReplayLanguageModel', () => {
  it('plays the script under generateText, one step per model call', async () => {
    const model = new ReplayLanguageModel(script);
    const result = await generateText({ model, tools: { echo }, prompt: 'go', stopWhen: stepCountIs(5) });
    expect(result.text).toBe('finished: all good');
    expect(result.steps).toHaveLength(2);
    expect(result.steps[0]!.toolResults[0]).toMatchObject({ toolCallId: 'c1', output: 'echo:hi' });
    expect(model.stepsUsed).toBe(2);
  });

  it('streams text in chunks and tool calls under streamText', async () => {
    const model = new ReplayLanguageModel(script, { streamChunkSize: 4 });
    const result = streamText({ model, tools: { echo }, prompt: 'go', stopWhen: stepCountIs(5) });
    const deltas: string[] = [];
    for await (const part of result.fullStream) if (part.type === 'text-delta') deltas.push(part.text);
    expect(deltas.join('')).toBe('callingfinished: all good');
    expect(deltas.length).toBeGreaterThan(4);
    expect((await result.steps)[0]!.toolCalls[0]).toMatchObject({ toolCallId: 'c1', toolName: 'echo', input: { text: 'hi' } });
  });

  it('numbers calls without ids and fails clearly when the script is used up', async () => {
    const model = new ReplayLanguageModel({ steps: [{ toolCalls: [{ toolName: 'echo', input: { text: 'a' } }] }] });
    const error = await generateText({ model, tools: { echo }, prompt: 'go', stopWhen: stepCountIs(5) }).catch((e: unknown) => e);
    expect(ReplayExhaustedError.isInstance(error) || ReplayExhaustedError.isInstance((error as { cause?: unknown }).cause)).toBe(
      true,
    );
    expect(String((error as Error).message)).toMatch(/all were used.*end the script with a \{"text"/);
  });

  it('honours an aborted signal', async () => {
    const model = new ReplayLanguageModel(script);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(model.doGenerate({ prompt: [], abortSignal: controller.signal } as never)).rejects.toThrow('stop');
  });

  it('repeats the last step when asked, and records every call', async () => {
    const model = new ReplayLanguageModel({ steps: [{ text: 'again' }] }, { repeatLastStep: true });
    for (let i = 0; i < 3; i++) await generateText({ model, prompt: `call ${i}` });
    expect(model.calls).toHaveLength(3);
    expect(JSON.stringify(model.calls[2]!.prompt)).toContain('call 2');
  });

  it('loads a script file, naming the file in every problem', () => {
    const dir = mkdtempSync(join(tmpdir(), 'replay-'));
    try {
      const file = join(dir, 'run.json');
      writeFileSync(file, JSON.stringify(script));
      expect(loadReplayScript(file).steps).toHaveLength(2);
      writeFileSync(file, '{"steps": [');
      expect(() => loadReplayScript(file)).toThrow(/--model replay:.*run\.json: not valid JSON/);
      expect(() => loadReplayScript(join(dir, 'missing.json'))).toThrow(/cannot read the file \(ENOENT\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [[], /no "steps" array/],
    [{}, /no "steps" array/],
    [{ steps: [1] }, /step 0 is not an object/],
    [{ steps: [{ toolCalls: [{ toolName: '' }] }] }, /step 0, call 0: "toolName" must be a non-empty string/],
    [{ steps: [{ toolCalls: [{ toolName: 'x', id: '' }] }] }, /step 0, call 0: "id" must be a non-empty string/],
    [{ steps: [] }, /"steps" is empty/],
    [{ steps: [{}] }, /step 0 has neither "toolCalls" nor "text"/],
    [{ steps: [{ toolCalls: [] }] }, /step 0: "toolCalls" must be a non-empty array/],
    [{ steps: [{ toolCalls: [{ toolName: 'x', input: [1] }] }] }, /step 0, call 0: "input" must be an object/],
    [{ steps: [{ text: 'a' }, { text: 3 }] }, /step 1: "text" must be a string/],
  ])('rejects a malformed script %j', (value, message) => {
    expect(() => parseReplayScript(value)).toThrow(ReplayScriptError);
    expect(() => parseReplayScript(value)).toThrow(message as RegExp);
  });
});
