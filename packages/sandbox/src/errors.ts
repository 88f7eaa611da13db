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

/** Whether `error` carries `marker` (set by the constructor of a class from any copy of this package). */
function hasMarker(error: unknown, marker: symbol): boolean {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
}

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
    return hasMarker(error, baseMarker);
  }
}

/**
 * Defines one marked error class: its own `Symbol.for` marker (so `isInstance` works across copies
 * of this package) on top of the base marker, and the fixed `code`. Every class below is made here.
 */
function defineSandboxError<N extends string>(className: N, code: SandboxErrorCode): SandboxErrorClass<N> {
  const marker = Symbol.for(`aibuddy.sandbox.${className}`);
  return class extends SandboxError {
    override readonly name: string = className;
    constructor(message: string, options?: { path?: string; cause?: unknown }) {
      super(code, message, options);
      (this as unknown as Record<symbol, boolean>)[marker] = true;
    }
    static override isInstance(error: unknown): error is SandboxError {
      return hasMarker(error, marker);
    }
  } as unknown as SandboxErrorClass<N>;
}

/** The shape of each sandbox error class: a constructor plus a cross-copy `isInstance`. */
export type SandboxErrorClass<N extends string> = {
  /** Creates the error; `path` is the path concerned as given, `cause` the underlying error. */
  new (message: string, options?: { path?: string; cause?: unknown }): SandboxError & { readonly name: N };
  /** True for an error of this class, from any copy of this package. */
  isInstance(error: unknown): error is SandboxError;
};

/** A path resolves outside the workspace (by `..`, an absolute path, a symlink, ...). */
export const SandboxPathError = defineSandboxError('SandboxPathError', 'PATH_ESCAPE');
/** The path does not exist. */
export const SandboxNotFoundError = defineSandboxError('SandboxNotFoundError', 'NOT_FOUND');
/** The path is not a regular file (a directory, FIFO, device, ...). */
export const SandboxNotAFileError = defineSandboxError('SandboxNotAFileError', 'NOT_A_FILE');
/** The file or content is over a size limit. */
export const SandboxTooLargeError = defineSandboxError('SandboxTooLargeError', 'TOO_LARGE');
/** The file is binary and cannot be read as text. */
export const SandboxBinaryFileError = defineSandboxError('SandboxBinaryFileError', 'BINARY');
/** An operation ran past its time bound. */
export const SandboxTimeoutError = defineSandboxError('SandboxTimeoutError', 'TIMEOUT');
/** An operation was aborted by its signal. */
export const SandboxAbortedError = defineSandboxError('SandboxAbortedError', 'ABORTED');
/** The backend is not available in this deployment. */
export const SandboxUnavailableError = defineSandboxError('SandboxUnavailableError', 'UNAVAILABLE');
/** `editFile` found the old text zero times or several times. */
export const SandboxEditError = defineSandboxError('SandboxEditError', 'EDIT_MISMATCH');
/** An argument is malformed (a negative line offset, an invalid regular expression, ...). */
export const SandboxArgumentError = defineSandboxError('SandboxArgumentError', 'INVALID_ARGUMENT');
