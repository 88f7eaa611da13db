import type { Tool, ToolSet } from 'ai';
import type { ModelOutput } from '@aibuddy/registry';
import type { RuntimeEvent, ToolResultEvent } from '@aibuddy/runtime';
import type { AgentEvent, AgentEventSink, CompactionEvent } from './events.js';

/**
 * Routes events to two sinks: `live` (a display: everything at once, as it happens) and `log` (the
 * event log, whose `tool-result.model` must be exactly what the model is sent).
 *
 * The runtime reports `tool-finished` (the client's view) at once and `tool-result` once its own
 * model view is final (after compaction). One later step can still change what the model is sent:
 * a defer path's presentation (on the Anthropic native path `tool_search` answers with
 * `tool_reference` blocks). It happens in the final tool map's `toModelOutput`, so the router wraps
 * that and writes the `tool-result` line with its answer. A call's `compaction` line is written
 * right after its `tool-result` line.
 */
export interface EventRouter {
  /** The runtime's event sink. */
  runtime(event: RuntimeEvent): void;
  /** The compactor's event sink. */
  compaction(event: CompactionEvent): void;
  /** Any other event (both sinks at once). */
  emit(event: AgentEvent): void;
  /** Wraps `toModelOutput` of the final tools so the log gets the view the model is sent. */
  wrapTools(tools: ToolSet): ToolSet;
  /** Writes what is still held back (a stopped run): results with the runtime's view, then compactions. */
  flush(): void;
}

/** Creates an {@link EventRouter}. */
export function createEventRouter(sinks: { live?: AgentEventSink; log?: AgentEventSink }): EventRouter {
  const live = (e: AgentEvent) => sinks.live?.(e);
  const log = (e: AgentEvent) => sinks.log?.(e);
  // Calls that finished and whose tool-result line is not written yet.
  const awaitingResult = new Set<string>();
  const pendingResults = new Map<string, ToolResultEvent>();
  const heldCompactions = new Map<string, CompactionEvent>();

  const writeResult = (event: ToolResultEvent, model: ModelOutput) => {
    pendingResults.delete(event.toolCallId);
    awaitingResult.delete(event.toolCallId);
    log({ ...event, model });
    const compaction = heldCompactions.get(event.toolCallId);
    if (compaction) {
      heldCompactions.delete(event.toolCallId);
      log(compaction);
    }
  };

  return {
    runtime(event) {
      if (event.type === 'tool-finished') {
        if (!event.error) awaitingResult.add(event.toolCallId);
        live(event);
        log(event);
        return;
      }
      if (event.type === 'tool-result') {
        // The display already showed `tool-finished`; the log waits for the final presentation.
        live(event);
        if (event.error) writeResult(event, event.model);
        else pendingResults.set(event.toolCallId, event);
        return;
      }
      live(event);
      log(event);
    },
    compaction(event) {
      live(event);
      if (awaitingResult.has(event.toolCallId) || pendingResults.has(event.toolCallId)) heldCompactions.set(event.toolCallId, event);
      else log(event);
    },
    emit(event) {
      live(event);
      log(event);
    },
    wrapTools(tools) {
      const out: ToolSet = {};
      for (const [name, original] of Object.entries(tools)) {
        const toModelOutput = original.toModelOutput;
        if (!toModelOutput) {
          out[name] = original;
          continue;
        }
        out[name] = {
          ...original,
          toModelOutput: async (args: { toolCallId: string; input: unknown; output: unknown }) => {
            const model = await (toModelOutput as (a: typeof args) => unknown)(args);
            const pending = pendingResults.get(args.toolCallId);
            if (pending) writeResult(pending, model as ModelOutput);
            return model as never;
          },
        } as Tool;
      }
      return out;
    },
    flush() {
      for (const event of [...pendingResults.values()]) writeResult(event, event.model);
      for (const event of heldCompactions.values()) log(event);
      heldCompactions.clear();
      awaitingResult.clear();
    },
  };
}
