/**
 * Sandbox errors. Each class has a `Symbol.for` marker and a static `isInstance`, so checks work
 * across duplicate package copies. `code` is stable for programs; the message is for people.
 */

/** Stable codes of sandbox errors. */
export type SandboxErrorCode =
  | 'PATH_ESCAPE'
  | 'NOT_FOUND'
  | 'NOT_A_FILE'
  | 'TOO_LARGE'
  | 'BINARY'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'UNAVAILABLE'
  | 'EDIT_MISMATCH'
  | 'INVALID_ARGUMENT';

const baseMarker = Symbol.for('aibuddy.sandbox.SandboxError');

/** Base class of every sandbox error. */
export class SandboxError extends Error {
  private readonly [baseMarker] = true;
  override readonly name: string = 'SandboxError';
  /** Stable code. */
  readonly code: SandboxErrorCode;
  /** The path concerned, as given, when there is one. */
  readonly path: string | undefined;

  constructor(code: SandboxErrorCode, message: string, options?: { path?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.path = options?.path;
  }

  /** True for any sandbox error. */
  static isInstance(error: unknown): error is SandboxError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[baseMarker] === true;
  }
}

function defineSandboxError(className: string, code: SandboxErrorCode) {
  const marker = Symbol.for(`aibuddy.sandbox.${className}`);
  return class extends SandboxError {
    override readonly name: string = className;
    constructor(message: string, options?: { path?: string; cause?: unknown }) {
      super(code, message, options);
      (this as unknown as Record<symbol, boolean>)[marker] = true;
    }
    static override isInstance(error: unknown): error is SandboxError {
      return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
    }
  };
}

/** The shape of each sandbox error class: a constructor plus a cross-copy `isInstance`. */
export type SandboxErrorClass<N extends string> = {
  /** Creates the error; `path` is the path concerned as given, `cause` the underlying error. */
  new (message: string, options?: { path?: string; cause?: unknown }): SandboxError & { readonly name: N };
  /** True for an error of this class, from any copy of this package. */
  isInstance(error: unknown): error is SandboxError;
};

/** A path resolves outside the workspace (by `..`, an absolute path, a symlink, ...). */
export const SandboxPathError: SandboxErrorClass<'SandboxPathError'> = defineSandboxError(
  'SandboxPathError',
  'PATH_ESCAPE',
) as never;
/** The path does not exist. */
export const SandboxNotFoundError: SandboxErrorClass<'SandboxNotFoundError'> = defineSandboxError(
  'SandboxNotFoundError',
  'NOT_FOUND',
) as never;
/** The path is not a regular file (a directory, FIFO, device, ...). */
export const SandboxNotAFileError: SandboxErrorClass<'SandboxNotAFileError'> = defineSandboxError(
  'SandboxNotAFileError',
  'NOT_A_FILE',
) as never;
/** The file or content is over a size limit. */
export const SandboxTooLargeError: SandboxErrorClass<'SandboxTooLargeError'> = defineSandboxError(
  'SandboxTooLargeError',
  'TOO_LARGE',
) as never;
/** The file is binary and cannot be read as text. */
export const SandboxBinaryFileError: SandboxErrorClass<'SandboxBinaryFileError'> = defineSandboxError(
  'SandboxBinaryFileError',
  'BINARY',
) as never;
/** An operation ran past its time bound. */
export const SandboxTimeoutError: SandboxErrorClass<'SandboxTimeoutError'> = defineSandboxError(
  'SandboxTimeoutError',
  'TIMEOUT',
) as never;
/** An operation was aborted by its signal. */
export const SandboxAbortedError: SandboxErrorClass<'SandboxAbortedError'> = defineSandboxError(
  'SandboxAbortedError',
  'ABORTED',
) as never;
/** The backend is not available in this deployment. */
export const SandboxUnavailableError: SandboxErrorClass<'SandboxUnavailableError'> = defineSandboxError(
  'SandboxUnavailableError',
  'UNAVAILABLE',
) as never;
/** `editFile` found the old text zero times or several times. */
export const SandboxEditError: SandboxErrorClass<'SandboxEditError'> = defineSandboxError(
  'SandboxEditError',
  'EDIT_MISMATCH',
) as never;
/** An argument is malformed (a negative line offset, an invalid regular expression, ...). */
export const SandboxArgumentError: SandboxErrorClass<'SandboxArgumentError'> = defineSandboxError(
  'SandboxArgumentError',
  'INVALID_ARGUMENT',
) as never;
