import { InvalidToolInputError, NoSuchToolError } from 'ai';
import { describe, expect, it } from 'vitest';
import { TOOL_STAGES, ToolError } from '@aibuddy/registry';
import { stageOfToolFailure } from './stage-of.js';

describe('stageOfToolFailure', () => {
  it('takes the stage of a ToolError anywhere in the cause chain', () => {
    const inner = new ToolError('nope', { stage: 'authorization', toolName: 't' });
    const wrapped = new Error('Error repairing tool call', { cause: new Error('middle', { cause: inner }) });
    expect(stageOfToolFailure(wrapped)).toEqual({ stage: 'authorization', message: inner.message });
  });

  it('recognises every stage tag of the registry in a message (no hand-copied list)', () => {
    for (const stage of TOOL_STAGES) {
      expect(stageOfToolFailure(`Error repairing tool call: [${stage}] x: broken`)).toEqual({
        stage,
        message: `[${stage}] x: broken`,
      });
    }
  });

  it("maps the SDK's own refusals: no such tool → discovery, invalid input → parameters, else execution", () => {
    expect(stageOfToolFailure(new NoSuchToolError({ toolName: 'ghost', availableTools: ['a'] })).stage).toBe('discovery');
    expect(
      stageOfToolFailure(new InvalidToolInputError({ toolName: 'a', toolInput: '{', cause: new Error('bad json') })).stage,
    ).toBe('parameters');
    const other = stageOfToolFailure(new Error('socket hang up'));
    expect(other).toEqual({ stage: 'execution', message: '[execution] socket hang up' });
  });
});
