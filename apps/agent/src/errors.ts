import type { ToolStage } from '@aibuddy/registry';

const argumentErrorMarker = Symbol.for('aibuddy.agent.ArgumentError');
const startupErrorMarker = Symbol.for('aibuddy.agent.AgentStartupError');

/** A bad command line: the CLI prints it with the usage hint and exits with code 2. */
export class ArgumentError extends Error {
  private readonly [argumentErrorMarker] = true;
  override readonly name: string = 'ArgumentError';

  /** @param message What is wrong and what to write instead. */
  constructor(message: string) {
    super(message);
  }

  /** True for any `ArgumentError`, from any copy of this package. */
  static isInstance(error: unknown): error is ArgumentError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[argumentErrorMarker] === true;
  }
}

/** Where a run failed before or around the model loop. Tool stages plus the host's own phases. */
export type AgentStage = ToolStage | 'configuration' | 'model';

/**
 * A failure while composing or running an agent, attributed to a stage and carrying the fix.
 * The message reads `[stage] what happened. Fix: what to do.`
 */
export class AgentStartupError extends Error {
  private readonly [startupErrorMarker] = true;
  override readonly name: string = 'AgentStartupError';
  /** The stage that failed. */
  readonly stage: AgentStage;
  /** What to do about it. */
  readonly fix: string | undefined;

  /**
   * @param stage The stage that failed.
   * @param message What happened.
   * @param options The fix and the underlying error.
   */
  constructor(stage: AgentStage, message: string, options: { fix?: string; cause?: unknown } = {}) {
    super(`[${stage}] ${message}${options.fix ? ` Fix: ${options.fix}` : ''}`, { cause: options.cause });
    this.stage = stage;
    this.fix = options.fix;
  }

  /** True for any `AgentStartupError`, from any copy of this package. */
  static isInstance(error: unknown): error is AgentStartupError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[startupErrorMarker] === true;
  }
}
