import { describe, expect, it } from 'vitest';
import * as errors from './errors.js';

const { SandboxError, SandboxPathError } = errors;

const classes = [
  [errors.SandboxPathError, 'PATH_ESCAPE'],
  [errors.SandboxNotFoundError, 'NOT_FOUND'],
  [errors.SandboxNotAFileError, 'NOT_A_FILE'],
  [errors.SandboxTooLargeError, 'TOO_LARGE'],
  [errors.SandboxBinaryFileError, 'BINARY'],
  [errors.SandboxTimeoutError, 'TIMEOUT'],
  [errors.SandboxAbortedError, 'ABORTED'],
  [errors.SandboxUnavailableError, 'UNAVAILABLE'],
  [errors.SandboxEditError, 'EDIT_MISMATCH'],
  [errors.SandboxArgumentError, 'INVALID_ARGUMENT'],
] as const;

describe('sandbox errors', () => {
  for (const [Cls, code] of classes) {
    it(`${code}: code, name, path, cause and Symbol.for markers`, () => {
      const cause = new Error('low level');
      const error = new Cls('message', { path: 'a/b', cause });
      expect(error).toBeInstanceOf(Error);
      expect(error).toBeInstanceOf(Cls);
      expect(error).toBeInstanceOf(SandboxError);
      expect(error.code).toBe(code);
      expect(error.path).toBe('a/b');
      expect(error.cause).toBe(cause);
      expect(SandboxError.isInstance(error)).toBe(true);
      expect(Cls.isInstance(error)).toBe(true);
      // Only its own class marker matches.
      for (const [Other] of classes) if (Other !== Cls) expect(Other.isInstance(error)).toBe(false);
      // A copy from another package instance (same Symbol.for markers) is recognised.
      const foreign = JSON.parse('{}') as Record<symbol, boolean>;
      foreign[Symbol.for('aibuddy.sandbox.SandboxError')] = true;
      foreign[Symbol.for(`aibuddy.sandbox.${error.name}`)] = true;
      expect(Cls.isInstance(foreign)).toBe(true);
    });
  }
  it('isInstance is false for plain errors and non-objects', () => {
    expect(SandboxError.isInstance(new Error('x'))).toBe(false);
    expect(SandboxPathError.isInstance(undefined)).toBe(false);
    expect(SandboxPathError.isInstance('SandboxPathError')).toBe(false);
  });
});
