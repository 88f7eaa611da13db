import type { JsonValue, ModelOutput, ToolDefinition } from '@aibuddy/registry';

/** Makes a value JSON-safe (drops undefined, functions; turns bigint into strings). */
export function toJsonValue(value: unknown): JsonValue {
  if (value === undefined) return null;
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  return text === undefined ? null : (JSON.parse(text) as JsonValue);
}

/** Normalizes a hook's answer (a string or a `ModelOutput`) into a `ModelOutput`. */
export function normalizeModelOutput(value: ModelOutput | string): ModelOutput {
  return typeof value === 'string' ? { type: 'text', value } : value;
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

/** The text of a model view, for token counting and logs. */
export function modelOutputText(output: ModelOutput): string {
  switch (output.type) {
    case 'text':
      return output.value;
    case 'json':
      return JSON.stringify(output.value);
    case 'error-text':
      return output.value;
    case 'execution-denied':
      return `Execution denied${output.reason ? `: ${output.reason}` : ''}`;
    case 'content':
      return output.value
        .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : JSON.stringify(part)))
        .join('\n');
  }
}
