import { createToolIndex } from '@aibuddy/discovery';
import type { ToolIndex } from '@aibuddy/discovery';
import { asSchema } from 'ai';
import type { ToolSet } from 'ai';

/** The search engine `defer` needs: `createToolIndex(...)` from `@aibuddy/discovery` fits. */
export type ToolSearchEngine = Pick<ToolIndex, 'search'>;

/** The JSON Schema of an AI SDK tool, when it is available synchronously (it is for `createAiTools` tools). */
export function syncJsonSchema(t: ToolSet[string]): unknown {
  try {
    const schema = asSchema(t.inputSchema).jsonSchema as unknown;
    return typeof (schema as PromiseLike<unknown> | undefined)?.then === 'function' ? undefined : schema;
  } catch {
    return undefined;
  }
}

/** Builds the discovery engine over deferred AI SDK tools (name, description, schema, server). */
export function indexDeferredTools(tools: ToolSet, serverOf: ReadonlyMap<string, string>): ToolSearchEngine {
  return createToolIndex(
    Object.entries(tools).map(([name, t]) => ({ name, description: t.description ?? '', inputSchema: syncJsonSchema(t), server: serverOf.get(name) })),
  );
}
