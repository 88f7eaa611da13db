import type { Tool, ToolSet } from 'ai';
import type { ModelOutput } from '@aibuddy/registry';
import type { RuntimeEvent, ToolResultEvent } from '@aibuddy/runtime';
import type { AgentEvent, AgentEventSink, CompactionEvent } from './events.js';

/**
 * Routes events to two sinks: `live` (a display: everything at once, as it happens) and `log` (the
 * event log, whose `tool-result.model` must be exactly what the model is sent).
 *
 * The runtime reports a result as soon as the call ends, with the tool's own model view. Two later
 * steps can change what the model is actually sent: the compactor's replacement of a large view,
 * and a defer path's re-presentation (Anthropic `tool_reference` blocks for `tool_search`). Both
 * happen inside the final tool map's `toModelOutput`, so the router wraps it and writes the
 * `tool-result` line with its answer; the display line is not held back. A `compaction` line follows
 * the `tool-result` line of its call.
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
  /** Writes results whose `toModelOutput` never ran (a stopped run) with the runtime's view. */
  flush(): void;
}

/** Creates an {@link EventRouter}. */
export function createEventRouter(sinks: { live?: AgentEventSink; log?: AgentEventSink }): EventRouter {
  const live = (e: AgentEvent) => sinks.live?.(e);
  const log = (e: AgentEvent) => sinks.log?.(e);
  const pendingResults = new Map<string, ToolResultEvent>();
  const pendingCompactions = new Map<string, CompactionEvent>();

  const writeResult = (event: ToolResultEvent, model: ModelOutput) => {
    pendingResults.delete(event.toolCallId);
    log({ ...event, model });
    const compaction = pendingCompactions.get(event.toolCallId);
    if (compaction) {
      pendingCompactions.delete(event.toolCallId);
      log(compaction);
    }
  };

  return {
    runtime(event) {
      live(event);
      if (event.type === 'tool-result' && !event.error) pendingResults.set(event.toolCallId, event);
      else log(event);
    },
    compaction(event) {
      live(event);
      if (pendingResults.has(event.toolCallId)) pendingCompactions.set(event.toolCallId, event);
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
      for (const event of pendingCompactions.values()) log(event);
      pendingCompactions.clear();
    },
  };
}
