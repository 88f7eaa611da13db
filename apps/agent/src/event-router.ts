import type { CompactionEvent } from '@aibuddy/compactor';
import type { RuntimeEvent } from '@aibuddy/runtime';
import type { AgentEvent, AgentEventSink } from './events.js';

/**
 * Routes events to two sinks: `live` (a display: everything at once, as it happens) and `log` (the
 * event log, whose `tool-result.model` is exactly what the model is sent).
 *
 * Every tool, `tool_search` included, runs through the runtime, which reports `tool-finished` (the
 * client's view) at once and `tool-result` once the model view is final (after compaction, in the
 * presentation of the defer path). The one thing the router adds is order in the log: a call's
 * `compaction` line comes right after its `tool-result` line, although the compactor may finish
 * before the model view is asked for.
 */
export interface EventRouter {
  /** The runtime's event sink. */
  runtime(event: RuntimeEvent): void;
  /** The compactor's event sink. */
  compaction(event: CompactionEvent): void;
  /** Writes what is still held back (a stopped run): compactions whose result never came. */
  flush(): void;
}

/** Creates an {@link EventRouter}. */
export function createEventRouter(sinks: { live?: AgentEventSink; log?: AgentEventSink }): EventRouter {
  const live = (e: AgentEvent) => sinks.live?.(e);
  const log = (e: AgentEvent) => sinks.log?.(e);
  // Calls that finished and whose tool-result line is not written yet.
  const awaitingResult = new Set<string>();
  const heldCompactions = new Map<string, CompactionEvent>();

  return {
    runtime(event) {
      live(event);
      if (event.type === 'tool-finished' && !event.error) awaitingResult.add(event.toolCallId);
      log(event);
      if (event.type === 'tool-result') {
        awaitingResult.delete(event.toolCallId);
        const compaction = heldCompactions.get(event.toolCallId);
        if (compaction) {
          heldCompactions.delete(event.toolCallId);
          log(compaction);
        }
      }
    },
    compaction(event) {
      live(event);
      if (awaitingResult.has(event.toolCallId)) heldCompactions.set(event.toolCallId, event);
      else log(event);
    },
    flush() {
      for (const event of heldCompactions.values()) log(event);
      heldCompactions.clear();
      awaitingResult.clear();
    },
  };
}
