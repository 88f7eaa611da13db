import { describe, expect, it } from 'vitest';
import {
  SandboxAbortedError,
  SandboxArgumentError,
  SandboxBinaryFileError,
  SandboxEditError,
  SandboxError,
  SandboxNotAFileError,
  SandboxNotFoundError,
  SandboxPathError,
  SandboxTimeoutError,
  SandboxTooLargeError,
  SandboxUnavailableError,
} from './errors.js';

const classes = [
  [SandboxPathError, 'PATH_ESCAPE'],
  [SandboxNotFoundError, 'NOT_FOUND'],
  [SandboxNotAFileError, 'NOT_A_FILE'],
  [SandboxTooLargeError, 'TOO_LARGE'],
  [SandboxBinaryFileError, 'BINARY'],
  [SandboxTimeoutError, 'TIMEOUT'],
  [SandboxAbortedError, 'ABORTED'],
  [SandboxUnavailableError, 'UNAVAILABLE'],
  [SandboxEditError, 'EDIT_MISMATCH'],
  [SandboxArgumentError, 'INVALID_ARGUMENT'],
] as const;

describe('sandbox errors', () => {
  for (const [Cls, code] of classes) {
    it(`${code}: code, name, path, cause and Symbol.for markers`, () => {
      const cause = new Error('low level');
      const error = new Cls('message', { path: 'a/b', cause });
      expect(error).toBeInstanceOf(Error);
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
