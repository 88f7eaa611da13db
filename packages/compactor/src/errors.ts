import type { ToolStage } from '@aibuddy/registry';

const marker = Symbol.for('aibuddy.compactor.CompactorError');

/** A failure of the compactor: a bad hook answer, a storage failure, a missing record. */
export class CompactorError extends Error {
  private readonly [marker] = true;
  override readonly name = 'CompactorError';
  /** The lifecycle stage the failure belongs to (compaction is part of `projection`). */
  readonly stage: ToolStage;
  /** The call concerned, when known. */
  readonly toolCallId: string | undefined;

  constructor(message: string, options: { stage?: ToolStage; toolCallId?: string; cause?: unknown } = {}) {
    const stage = options.stage ?? 'projection';
    super(`[${stage}] ${message}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.stage = stage;
    this.toolCallId = options.toolCallId;
  }

  /** Whether `value` is a `CompactorError` (works across package copies). */
  static isInstance(value: unknown): value is CompactorError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
