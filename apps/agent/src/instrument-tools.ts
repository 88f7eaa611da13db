import type { Tool, ToolSet } from 'ai';
import { ToolError } from '@aibuddy/registry';
import type { ModelOutput } from '@aibuddy/registry';
import { toJsonValue } from '@aibuddy/runtime';
import type { AgentEventSink } from './events.js';

function defaultModelView(output: unknown): ModelOutput {
  return typeof output === 'string' ? { type: 'text', value: output } : { type: 'json', value: toJsonValue(output) };
}

/**
 * Adds `tool-call` / `tool-result` events to tools that do not run through `createAiTools` (the
 * search tool made by `@aibuddy/defer`), so the event log covers every call. The model view in the
 * event is the tool's own `toModelOutput` answer, exactly what the model is sent.
 */
export function instrumentTools(tools: ToolSet, skip: ReadonlySet<string>, emit: AgentEventSink): ToolSet {
  const out: ToolSet = {};
  for (const [name, original] of Object.entries(tools)) {
    if (skip.has(name) || typeof original.execute !== 'function') {
      out[name] = original;
      continue;
    }
    const execute = original.execute.bind(original);
    const toModelOutput = original.toModelOutput?.bind(original);
    const started = new Map<string, number>();
    const wrapped: Tool = {
      ...original,
      execute: async (input: unknown, options: Parameters<NonNullable<Tool['execute']>>[1]) => {
        started.set(options.toolCallId, Date.now());
        emit({ type: 'tool-call', toolCallId: options.toolCallId, toolName: name, input });
        try {
          return await (execute as (i: unknown, o: unknown) => Promise<unknown>)(input, options);
        } catch (error) {
          const toolError = ToolError.isInstance(error) ? error : undefined;
          const message = error instanceof Error ? error.message : String(error);
          emit({
            type: 'tool-result',
            toolCallId: options.toolCallId,
            toolName: name,
            client: { error: toolError ? toolError.toJSON() : { stage: 'execution', message } },
            model: { type: 'error-text', value: message },
            error: { stage: toolError?.stage ?? 'execution', message },
            durationMs: Date.now() - (started.get(options.toolCallId) ?? Date.now()),
          });
          throw error;
        }
      },
      toModelOutput: async (args: { toolCallId: string; input: unknown; output: unknown }) => {
        const model = (toModelOutput ? await toModelOutput(args as never) : defaultModelView(args.output)) as ModelOutput;
        emit({
          type: 'tool-result',
          toolCallId: args.toolCallId,
          toolName: name,
          client: args.output,
          model,
          durationMs: Date.now() - (started.get(args.toolCallId) ?? Date.now()),
        });
        started.delete(args.toolCallId);
        return model as never;
      },
    } as Tool;
    out[name] = wrapped;
  }
  return out;
}
