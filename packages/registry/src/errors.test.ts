import { describe, expect, it } from 'vitest';
import { RegistryConsistencyError, ToolDefinitionError, ToolError, toToolError } from './errors.js';

describe('errors', () => {
  it('ToolError names its stage in the message and survives duplicate package copies', () => {
    const error = new ToolError('path escapes the workspace', {
      stage: 'parameters',
      toolName: 'read_file',
      hint: 'Use a relative path.',
    });
    expect(error.message).toBe('[parameters] read_file: path escapes the workspace Use a relative path.');
    expect(error.retryable).toBe(true);
    // A plain object carrying the same marker (what a second copy of the class would produce).
    const foreign = Object.assign(new Error('x'), { [Symbol.for('aibuddy.registry.ToolError')]: true });
    expect(ToolError.isInstance(foreign)).toBe(true);
    expect(ToolError.isInstance(new Error('x'))).toBe(false);
    expect(ToolDefinitionError.isInstance(error)).toBe(false);
    expect(RegistryConsistencyError.isInstance(error)).toBe(false);
  });

  it('execution failures say whether side effects may have happened; authorization is not retryable', () => {
    expect(toToolError(new Error('boom'), 'execution', 't').sideEffectsPossible).toBe(true);
    expect(new ToolError('no', { stage: 'authorization' }).retryable).toBe(false);
    const kept = new ToolError('x', { stage: 'verification' });
    expect(toToolError(kept, 'execution')).toBe(kept);
    expect(kept.toJSON()).toMatchObject({ stage: 'verification', retryable: false });
  });
});
