import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { TOOL_STAGES, ToolError } from '@aibuddy/registry';
import { ReplayExhaustedError } from './replay/replay-model.js';
import { stageOfRunFailure } from './run-failure.js';

describe('stageOfRunFailure', () => {
  it('takes the stage of a ToolError anywhere in the cause chain', () => {
    const inner = new ToolError('denied', { stage: 'authorization', toolName: 'execute' });
    expect(stageOfRunFailure(new Error('outer', { cause: inner }))).toEqual({ stage: 'authorization', message: inner.message });
  });

  it('keeps a leading stage tag, for every tool stage and the model', () => {
    for (const stage of [...TOOL_STAGES, 'model'] as const) {
      expect(stageOfRunFailure(new Error(`[${stage}] broken`))).toEqual({ stage, message: `[${stage}] broken` });
    }
    expect(stageOfRunFailure(new ReplayExhaustedError(1)).stage).toBe('model');
  });

  it("attributes anything else to the model: a provider's error, a tag that is not a stage, a string", () => {
    const api = new APICallError({ message: 'Bad Request', url: 'http://127.0.0.1/v1', requestBodyValues: {}, statusCode: 400 });
    expect(stageOfRunFailure(api)).toEqual({ stage: 'model', message: '[model] Bad Request' });
    expect(stageOfRunFailure(new Error('[warning] odd'))).toEqual({ stage: 'model', message: '[model] [warning] odd' });
    expect(stageOfRunFailure('socket hang up')).toEqual({ stage: 'model', message: '[model] socket hang up' });
  });
});
