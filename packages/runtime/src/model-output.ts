import { modelOutputText, normalizeModelOutput } from '@aibuddy/registry';
import type { JsonValue, ModelOutput, ToolDefinition } from '@aibuddy/registry';

// Defined once in the registry (the compactor counts tokens on the same text); re-exported here,
// where the runtime's users have always found them.
export { modelOutputText, normalizeModelOutput };

/** Makes a value JSON-safe (drops undefined, functions; turns bigint into strings). */
export function toJsonValue(value: unknown): JsonValue {
  if (value === undefined) return null;
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return text === undefined ? null : (JSON.parse(text) as JsonValue);
}

/** The model's view of a result: the tool's `toModelOutput` hook, else text or JSON. */
export function defaultModelOutput(
  definition: Pick<ToolDefinition, 'name' | 'toModelOutput'>,
  toolCallId: string,
  input: unknown,
  output: unknown,
): ModelOutput {
  if (definition.toModelOutput) {
    return normalizeModelOutput(definition.toModelOutput({ toolName: definition.name, toolCallId, input, output }));
  }
  if (typeof output === 'string') return { type: 'text', value: output };
  return { type: 'json', value: toJsonValue(output) };
}
