/**
 * Heartbeats that the AI SDK counts as stream chunks. An `execute` that returns an async iterable
 * makes the SDK emit each yielded value as a *preliminary* tool result (a `tool-result` chunk with
 * `preliminary: true`), and every chunk resets `streamText({ timeout: { chunkMs } })`. Only the
 * last value becomes the result: preliminary ones never reach `toModelOutput`, the response
 * messages or the next step's prompt (ai 6.0.x: `executeTool` in provider-utils, `runToolsTransformation`).
 */

/** The preliminary result a heartbeat yields: empty by design, a marker only. */
export interface HeartbeatChunk {
  /** Always `aibuddy.heartbeat`. */
  readonly type: 'aibuddy.heartbeat';
}

/** The one heartbeat value (frozen: clients may compare by identity or by `type`). */
export const HEARTBEAT_CHUNK: HeartbeatChunk = Object.freeze({ type: 'aibuddy.heartbeat' });

/** Whether a (preliminary) tool output is a heartbeat. */
export function isHeartbeatChunk(value: unknown): value is HeartbeatChunk {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'aibuddy.heartbeat';
}

/** A call's result that is awaitable (direct callers) and iterable (the AI SDK: heartbeats, then the result). */
export type HeartbeatingResult<T> = Promise<T> & AsyncIterable<T | HeartbeatChunk>;

/** Signals beats to a {@link withHeartbeats} result. */
export interface BeatSource {
  /** Registers the listener; returns its removal. */
  subscribe(listener: () => void): () => void;
}

/** A beat source fed by the caller (the runtime's timer and the tool's own `heartbeat()`). */
export function createBeatSource(): BeatSource & { beat(): void } {
  const listeners = new Set<() => void>();
  return {
    beat() {
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Makes `result` iterable: while it is pending, every beat of `source` yields one
 * {@link HEARTBEAT_CHUNK} (beats that arrive together are yielded once); then the result itself is
 * yielded last (or its error thrown). Awaiting the returned value gives the result as before.
 */
export function withHeartbeats<T>(result: Promise<T>, source: BeatSource): HeartbeatingResult<T> {
  // Whoever consumes the iterator handles the rejection; the promise itself must not be reported
  // as unhandled when only the iterator is used.
  result.catch(() => undefined);
  const settled = result.then(
    () => true,
    () => true,
  );
  const iterable = result as HeartbeatingResult<T>;
  iterable[Symbol.asyncIterator] = async function* () {
    let pending = false;
    let wake: (() => void) | undefined;
    const unsubscribe = source.subscribe(() => {
      pending = true;
      wake?.();
    });
    try {
      for (;;) {
        if (!pending) {
          const done = await Promise.race([settled, new Promise<false>((resolve) => (wake = () => resolve(false)))]);
          wake = undefined;
          if (done) break;
        }
        pending = false;
        yield HEARTBEAT_CHUNK;
      }
    } finally {
      unsubscribe();
    }
    yield await result;
  };
  return iterable;
}
