import type { RuntimeEvent } from './events.js';

/** An event about one call that belongs after the call's `tool-result` in a log (a compaction). */
export interface CallFollowUpEvent {
  /** The call it is about. */
  toolCallId: string;
}

/**
 * Routes events to two sinks: `live` (a display: everything at once, as it happens) and `log` (an
 * event log, whose `tool-result.model` is exactly what the model is sent).
 *
 * The runtime reports `tool-finished` (the client's view) at once and `tool-result` once the model
 * view is final. Another package's event about a call, such as the compactor's `compaction`, may
 * be ready before that; the log still gets it right after the call's `tool-result` line.
 */
export interface EventOrder<F extends CallFollowUpEvent> {
  /** The runtime's event sink. */
  runtime(event: RuntimeEvent): void;
  /** An event that follows its call's result in the log (the compactor's `onCompaction`). */
  followUp(event: F): void;
  /** Writes what is still held back (a stopped run): follow-ups whose result never came. */
  flush(): void;
}

/** Creates an {@link EventOrder} over a display sink and a log sink. */
export function createEventOrder<F extends CallFollowUpEvent>(sinks: {
  live?: ((event: RuntimeEvent | F) => void) | undefined;
  log?: ((event: RuntimeEvent | F) => void) | undefined;
}): EventOrder<F> {
  const live = (e: RuntimeEvent | F) => sinks.live?.(e);
  const log = (e: RuntimeEvent | F) => sinks.log?.(e);
  // Calls that finished and whose tool-result line is not written yet.
  const awaitingResult = new Set<string>();
  const held = new Map<string, F>();

  return {
    runtime(event) {
      live(event);
      if (event.type === 'tool-finished' && !event.error) awaitingResult.add(event.toolCallId);
      log(event);
      if (event.type === 'tool-result') {
        awaitingResult.delete(event.toolCallId);
        const followUp = held.get(event.toolCallId);
        if (followUp) {
          held.delete(event.toolCallId);
          log(followUp);
        }
      }
    },
    followUp(event) {
      live(event);
      if (awaitingResult.has(event.toolCallId)) held.set(event.toolCallId, event);
      else log(event);
    },
    flush() {
      for (const event of held.values()) log(event);
      held.clear();
      awaitingResult.clear();
    },
  };
}
