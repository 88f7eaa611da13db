/**
 * A `fetch` for the Streamable HTTP transport that refuses an oversized message from the server,
 * as the stdio transport does: the SDK reads a JSON answer whole and each server-sent event whole,
 * so a remote server could otherwise fill the host's memory with one answer.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MCP_STDIO_MAX_MESSAGE_BYTES } from './process-group-transport.js';

/** The largest message a Streamable HTTP server may send: a JSON answer, or one server-sent event. */
export const MCP_HTTP_MAX_MESSAGE_BYTES = MCP_STDIO_MAX_MESSAGE_BYTES;

const tooLargeMarker = Symbol.for('aibuddy.discovery.McpMessageTooLargeError');

/** Why a stream was cut: the message was over the limit. */
export class McpMessageTooLargeError extends Error {
  private readonly [tooLargeMarker] = true;
  override readonly name: string = 'McpMessageTooLargeError';
  /** The limit that was passed, in bytes. */
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    super(`a message from the server exceeded ${maxBytes} bytes, the message limit; it was not read`);
    this.maxBytes = maxBytes;
  }

  /** True for any `McpMessageTooLargeError`, from any copy of this package. */
  static isInstance(error: unknown): error is McpMessageTooLargeError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[tooLargeMarker] === true;
  }
}

/**
 * Wraps `base` so that a response body errors once a message passes `maxBytes`: the whole body of a
 * JSON answer, or the bytes since the last blank line of an event stream (events are separated by
 * blank lines, so a long-lived stream of small events is never cut).
 */
export function fetchWithMessageLimit(maxBytes = MCP_HTTP_MAX_MESSAGE_BYTES, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    if (!response.body) return response;
    const events = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    let size = 0;
    let afterLineFeed = false;
    const limited = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (!events) size += chunk.byteLength;
          else
            for (const byte of chunk) {
              if (byte === 10) {
                // A blank line ("\n\n", "\r\n\r\n") ends an event.
                if (afterLineFeed) size = 0;
                afterLineFeed = true;
              } else if (byte !== 13) afterLineFeed = false;
              size++;
            }
          if (size > maxBytes) controller.error(new McpMessageTooLargeError(maxBytes));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
