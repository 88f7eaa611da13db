import { ToolError } from '@aibuddy/registry';

const configErrorMarker = Symbol.for('aibuddy.discovery.McpConfigError');
const startErrorMarker = Symbol.for('aibuddy.discovery.McpServerStartError');

function hasMarker(value: unknown, marker: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
}

/**
 * An `mcpServers` config that cannot be used. Stage `discovery`; the message lists every problem
 * found, each with what to change.
 */
export class McpConfigError extends ToolError {
  private readonly [configErrorMarker] = true;
  override readonly name: string = 'McpConfigError';
  /** Where the config came from (a file path, or "inline config"). */
  readonly source: string;
  /** Every problem found, one sentence each, naming the fix. */
  readonly problems: readonly string[];

  constructor(source: string, problems: readonly string[], cause?: unknown) {
    super(
      `invalid MCP config (${source}), ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n` +
        problems.map((p) => `  - ${p}`).join('\n'),
      {
        stage: 'discovery',
        retryable: false,
        hint: '\nThe expected shape is {"mcpServers":{"<name>":{"command":"...","args":[...],"env":{...}} | {"url":"https://..."}}}.',
        details: { source, problems },
        ...(cause === undefined ? {} : { cause }),
      },
    );
    this.source = source;
    this.problems = problems;
  }

  /** True for any `McpConfigError`, from any copy of this package. */
  static override isInstance(error: unknown): error is McpConfigError {
    return hasMarker(error, configErrorMarker);
  }
}

/**
 * An MCP server that did not start (spawn failure, early exit, start-up timeout, handshake or
 * `tools/list` failure). Stage `discovery`; carries the tail of the server's stderr.
 */
export class McpServerStartError extends ToolError {
  private readonly [startErrorMarker] = true;
  override readonly name: string = 'McpServerStartError';
  /** The server's name in the config. */
  readonly server: string;
  /** The last lines the server wrote to stderr (stdio servers only; may be empty). */
  readonly stderrTail: string;
  /** Whether the server was given up on because it did not answer within its start-up timeout. */
  readonly timedOut: boolean;

  constructor(
    server: string,
    message: string,
    options: { stderrTail?: string; timedOut?: boolean; cause?: unknown; hint?: string },
  ) {
    const tail = options.stderrTail?.trim() ?? '';
    super(`MCP server "${server}" failed to start: ${message}${tail ? `\n--- stderr (last lines) ---\n${tail}` : ''}`, {
      stage: 'discovery',
      retryable: false,
      ...(options.hint ? { hint: options.hint } : {}),
      details: { server, stderrTail: tail, timedOut: options.timedOut ?? false },
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.server = server;
    this.stderrTail = tail;
    this.timedOut = options.timedOut ?? false;
  }

  /** True for any `McpServerStartError`, from any copy of this package. */
  static override isInstance(error: unknown): error is McpServerStartError {
    return hasMarker(error, startErrorMarker);
  }
}
