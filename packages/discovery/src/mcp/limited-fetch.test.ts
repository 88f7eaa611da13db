// The message limit over Streamable HTTP, on the two kinds of body the SDK reads: a JSON answer
// (read whole) and an event stream (read event by event).
import { describe, expect, it } from 'vitest';
import { fetchWithMessageLimit, McpMessageTooLargeError } from './limited-fetch.js';

const LIMIT = 1_000;

/** A fetch that answers with `parts` as the body, in that many chunks. */
const answering =
  (type: string, parts: string[]): typeof fetch =>
  async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
          controller.close();
        },
      }),
      { headers: { 'content-type': type } },
    );

describe('fetchWithMessageLimit', () => {
  it('reads a JSON answer under the limit as it is, and refuses one over it', async () => {
    const small = await fetchWithMessageLimit(LIMIT, answering('application/json', ['{"a":', '1}']))('http://127.0.0.1/');
    expect(await small.json()).toEqual({ a: 1 });
    const big = await fetchWithMessageLimit(
      LIMIT,
      answering('application/json', ['"', 'x'.repeat(LIMIT), '"']),
    )('http://127.0.0.1/');
    const error = await big.text().catch((e: unknown) => e);
    expect(McpMessageTooLargeError.isInstance(error)).toBe(true);
    expect((error as McpMessageTooLargeError).maxBytes).toBe(LIMIT);
  });

  it('never cuts a long stream of small events, and cuts one event over the limit', async () => {
    const event = `data: ${'y'.repeat(100)}\n\n`;
    const many = Array.from({ length: 50 }, () => event); // 5,000+ bytes in all, 108 per event
    const stream = await fetchWithMessageLimit(LIMIT, answering('text/event-stream', many))('http://127.0.0.1/');
    expect((await stream.text()).length).toBe(event.length * 50);
    const crlf = Array.from({ length: 50 }, () => `data: ${'z'.repeat(100)}\r\n\r\n`);
    const windows = await fetchWithMessageLimit(LIMIT, answering('text/event-stream', crlf))('http://127.0.0.1/');
    expect((await windows.text()).length).toBeGreaterThan(LIMIT);
    // One event split over several chunks, past the limit before its blank line.
    const huge = ['data: ', 'w'.repeat(600), 'w'.repeat(600), '\n\n'];
    const cut = await fetchWithMessageLimit(LIMIT, answering('text/event-stream', huge))('http://127.0.0.1/');
    await expect(cut.text()).rejects.toBeInstanceOf(McpMessageTooLargeError);
  });
});
