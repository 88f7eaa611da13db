/**
 * Errors of the tool layer. Each class carries a `Symbol.for(...)` marker and a static
 * `isInstance`, so `instanceof`-like checks keep working when two copies of this package are
 * installed side by side (the pattern of `@ai-sdk/provider`).
 */

/** The lifecycle stage in which a tool call failed. Every failure names exactly one. */
export type ToolStage = 'discovery' | 'parameters' | 'authorization' | 'execution' | 'projection' | 'verification';

/** All stages, in lifecycle order. */
export const TOOL_STAGES: readonly ToolStage[] = [
  'discovery',
  'parameters',
  'authorization',
  'execution',
  'projection',
  'verification',
];

const toolErrorMarker = Symbol.for('aibuddy.registry.ToolError');
const definitionErrorMarker = Symbol.for('aibuddy.registry.ToolDefinitionError');
const consistencyErrorMarker = Symbol.for('aibuddy.registry.RegistryConsistencyError');

function hasMarker(value: unknown, marker: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
}

/** Options of {@link ToolError}. */
export interface ToolErrorOptions {
  /** The stage in which the call failed. */
  stage: ToolStage;
  /** The tool (as the model sees its name), when known. */
  toolName?: string;
  /** Whether calling again (possibly with other input) can succeed. Defaults by stage. */
  retryable?: boolean;
  /**
   * For execution failures: whether side effects may already have happened
   * (a command that started, a file that may be partly changed). Defaults to `false`.
   */
  sideEffectsPossible?: boolean;
  /** What the caller (model or user) should do next. Appended to the message. */
  hint?: string;
  /** Structured details for clients and logs (validation issues, candidate lines, ...). */
  details?: unknown;
  /** The underlying error. */
  cause?: unknown;
}

/**
 * A failed tool call, attributed to one lifecycle stage. The message always starts with the
 * stage in brackets so that a model reading only text still learns where it failed.
 */
export class ToolError extends Error {
  private readonly [toolErrorMarker] = true;
  override readonly name: string = 'ToolError';
  /** The lifecycle stage in which the call failed. */
  readonly stage: ToolStage;
  /** The tool that failed, when known. */
  readonly toolName: string | undefined;
  /** Whether a retry (possibly with other input) makes sense. */
  readonly retryable: boolean;
  /** For execution failures: whether side effects may already have happened. */
  readonly sideEffectsPossible: boolean;
  /** What to do next. */
  readonly hint: string | undefined;
  /** Structured details. */
  readonly details: unknown;
  /** The message without the stage prefix and hint. */
  readonly reason: string;

  constructor(message: string, options: ToolErrorOptions) {
    const prefix = `[${options.stage}]${options.toolName ? ` ${options.toolName}:` : ''}`;
    super(`${prefix} ${message}${options.hint ? ` ${options.hint}` : ''}`, { cause: options.cause });
    this.stage = options.stage;
    this.toolName = options.toolName;
    this.reason = message;
    this.retryable = options.retryable ?? defaultRetryable(options.stage);
    this.sideEffectsPossible = options.sideEffectsPossible ?? false;
    this.hint = options.hint;
    this.details = options.details;
  }

  /** True for any `ToolError`, from any copy of this package. */
  static isInstance(error: unknown): error is ToolError {
    return hasMarker(error, toolErrorMarker);
  }

  /** A plain object for event logs and clients. */
  toJSON(): { stage: ToolStage; message: string; retryable: boolean; sideEffectsPossible: boolean; details?: unknown } {
    return {
      stage: this.stage,
      message: this.message,
      retryable: this.retryable,
      sideEffectsPossible: this.sideEffectsPossible,
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

function defaultRetryable(stage: ToolStage): boolean {
  // Wrong parameters or an undiscovered tool are fixed by the model calling again differently;
  // a denied authorization is a person's decision and must not be retried blindly.
  return stage === 'parameters' || stage === 'discovery' || stage === 'execution';
}

/** Thrown by `defineTool` when a tool cannot be defined. Names the tool and the fix. */
export class ToolDefinitionError extends Error {
  private readonly [definitionErrorMarker] = true;
  override readonly name: string = 'ToolDefinitionError';
  /** The tool name as given (may be invalid). */
  readonly toolName: string;

  constructor(toolName: string, message: string) {
    super(`Tool "${toolName}": ${message}`);
    this.toolName = toolName;
  }

  /** True for any `ToolDefinitionError`, from any copy of this package. */
  static isInstance(error: unknown): error is ToolDefinitionError {
    return hasMarker(error, definitionErrorMarker);
  }
}

/** One problem found by `assertConsistent`. */
export interface ConsistencyProblem {
  /** What kind of mismatch this is. */
  kind:
    | 'config-without-meta'
    | 'meta-without-config'
    | 'tool-maps-to-missing-config'
    | 'tool-maps-to-wrong-config'
    | 'tool-missing-from-map'
    | 'tool-in-several-configs'
    | 'duplicate-config-key';
  /** The config key concerned. */
  configKey?: string;
  /** The tool name concerned. */
  toolName?: string;
  /** A sentence that says what is wrong and what to change. */
  message: string;
}

/** Thrown by `assertConsistent`; lists every problem found, not just the first. */
export class RegistryConsistencyError extends Error {
  private readonly [consistencyErrorMarker] = true;
  override readonly name: string = 'RegistryConsistencyError';
  /** Every problem found. */
  readonly problems: readonly ConsistencyProblem[];

  constructor(problems: readonly ConsistencyProblem[]) {
    super(
      `Tool registry is inconsistent (${problems.length} problem${problems.length === 1 ? '' : 's'}); refusing to start:\n` +
        problems.map((p) => `  - ${p.message}`).join('\n'),
    );
    this.problems = problems;
  }

  /** True for any `RegistryConsistencyError`, from any copy of this package. */
  static isInstance(error: unknown): error is RegistryConsistencyError {
    return hasMarker(error, consistencyErrorMarker);
  }
}

/**
 * Turns anything thrown during a call into a `ToolError`, keeping an existing one as it is.
 * `fallbackStage` is used for errors that carry no stage of their own.
 */
export function toToolError(error: unknown, fallbackStage: ToolStage, toolName?: string): ToolError {
  if (ToolError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError(message, {
    stage: fallbackStage,
    ...(toolName === undefined ? {} : { toolName }),
    cause: error,
    sideEffectsPossible: fallbackStage === 'execution',
  });
}
