const marker = Symbol.for('aibuddy.discovery.ToolSearchQueryError');

/**
 * Thrown by {@link ToolIndex.search} when a regex query is not a valid pattern (or is too long).
 * Plain-text queries never throw: an empty or unmatched query simply returns no hits.
 *
 * `stage` is always `'parameters'`: the query is model input, so the model should fix it and retry.
 */
export class ToolSearchQueryError extends Error {
  private readonly [marker] = true;
  override readonly name: string = 'ToolSearchQueryError';
  /** Lifecycle stage the failure belongs to (the query is a tool parameter). */
  readonly stage = 'parameters' as const;
  /** The offending query as given. */
  readonly query: string;

  constructor(message: string, options: { query: string; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.query = options.query;
  }

  /** True for any `ToolSearchQueryError`, from any copy of this package. */
  static isInstance(error: unknown): error is ToolSearchQueryError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}
