import { describe, expect, it } from 'vitest';
import { ToolError } from '@aibuddy/registry';
import * as sandbox from '@aibuddy/sandbox';
import { toFsToolError } from './errors.js';

describe('toFsToolError: stage and hint by sandbox error code', () => {
  const parameters = [
    [sandbox.SandboxPathError, /workspace root/],
    [sandbox.SandboxNotFoundError, /Check the path/],
    [sandbox.SandboxNotAFileError, /directory/],
    [sandbox.SandboxBinaryFileError, /Binary files/],
    [sandbox.SandboxTooLargeError, /size limit/],
    [sandbox.SandboxArgumentError, /Fix the argument/],
    [sandbox.SandboxEditError, /exact text/],
  ] as const;
  for (const [Cls, hint] of parameters) {
    it(`${Cls.name || hint.source}: parameters stage, names the path once`, () => {
      const mapped = toFsToolError(new Cls('bad input'), 'read_file', 'a.txt');
      expect(mapped.stage).toBe('parameters');
      expect(mapped.hint).toMatch(hint);
      expect(mapped.message).toContain('read_file: bad input (path "a.txt")');
    });
  }

  it('a file given to ls gets the read_file hint', () => {
    expect(toFsToolError(new sandbox.SandboxNotAFileError('a file'), 'ls', 'a.txt').hint).toMatch(/read_file/);
  });

  it('abort and timeout are execution failures; abort is not retryable', () => {
    const aborted = toFsToolError(new sandbox.SandboxAbortedError('grep was aborted.'), 'grep', '.');
    expect(aborted).toMatchObject({
      stage: 'execution',
      retryable: false,
      message: expect.stringContaining('stopped: grep was aborted.'),
    });
    const timedOut = toFsToolError(new sandbox.SandboxTimeoutError('too slow'), 'grep', '.');
    expect(timedOut).toMatchObject({ stage: 'execution', hint: expect.stringMatching(/Narrow/) });
  });

  it('any other failure is execution, with side effects possible only for writes', () => {
    const unavailable = toFsToolError(new sandbox.SandboxUnavailableError('down'), 'write_file', 'a.txt');
    expect(unavailable).toMatchObject({ stage: 'execution', sideEffectsPossible: true, hint: '(sandbox error UNAVAILABLE)' });
    const plain = toFsToolError(new Error('EIO'), 'read_file', 'a.txt');
    expect(plain).toMatchObject({
      stage: 'execution',
      sideEffectsPossible: false,
      message: expect.stringContaining('EIO (path "a.txt")'),
    });
    expect(plain.hint).toBeUndefined();
  });

  it('a ToolError passes through unchanged', () => {
    const error = new ToolError('already staged', { stage: 'authorization', toolName: 'write_file' });
    expect(toFsToolError(error, 'write_file', 'a.txt')).toBe(error);
  });
});
