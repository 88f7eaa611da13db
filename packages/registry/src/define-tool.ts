import { ToolDefinitionError } from './errors.js';
import { normalizeInputSchema } from './input-schema.js';
import type { ToolInputSchema } from './input-schema.js';
import type { z } from 'zod';
import type { SyncToolDefinition, ToolDefinition, ToolSpec } from './tool-definition.js';

/** The input type `defineTool` gives a tool: the zod schema's output, or the declared type for JSON Schema. */
export type SchemaInput<S, DECLARED = unknown> = S extends z.ZodType ? NoInfer<z.output<S>> : DECLARED;

/** The names tool APIs accept (Anthropic and OpenAI share this rule). */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Defines a tool. Everything that can be checked is checked now, at definition time:
 * the name, the description, and that the input's JSON Schema exists synchronously with a
 * top-level `object`. Throws `ToolDefinitionError` naming the tool otherwise.
 */
export function defineTool<S extends ToolInputSchema, OUTPUT, DECLARED = unknown>(
  // With a zod schema the input type comes from the schema alone: `NoInfer` stops `execute`'s parameter
  // annotation from replacing it, so `execute(input: Wrong)` does not compile. A plain JSON Schema carries
  // no type, so there (only) the type `execute` declares is taken, as with the AI SDK's `jsonSchema<T>()`.
  spec: ToolSpec<SchemaInput<S, DECLARED>, OUTPUT> & { inputSchema: S },
): SyncToolDefinition<SchemaInput<S, DECLARED>, OUTPUT> {
  type INPUT = SchemaInput<S, DECLARED>;
  const name = typeof spec?.name === 'string' ? spec.name : String(spec?.name);
  if (typeof spec?.name !== 'string' || !TOOL_NAME_PATTERN.test(spec.name)) {
    throw new ToolDefinitionError(
      name,
      'the name must match ^[a-zA-Z0-9_-]{1,64}$ (letters, digits, "_" and "-", at most 64 characters).',
    );
  }
  if (typeof spec.description !== 'string' || spec.description.trim() === '') {
    throw new ToolDefinitionError(name, 'the description is empty. Say what the tool does and when to use it.');
  }
  if (typeof spec.execute !== 'function') {
    throw new ToolDefinitionError(name, 'execute must be a function.');
  }
  const schema = normalizeInputSchema<INPUT>(name, spec.inputSchema);
  return {
    kind: 'aibuddy.tool',
    name,
    description: spec.description,
    inputJsonSchema: schema.jsonSchema,
    validate: schema.validate,
    execute: spec.execute,
    ...(spec.impact ? { impact: spec.impact } : {}),
    disposable: spec.disposable ?? false,
    exemptFromCompaction: spec.exemptFromCompaction ?? false,
    ...(spec.toModelOutput ? { toModelOutput: spec.toModelOutput } : {}),
    ...(spec.toClient ? { toClient: spec.toClient } : {}),
    ...(spec.compact ? { compact: spec.compact } : {}),
  };
}

/** True for a value made by `defineTool` (from any copy of this package). */
export function isToolDefinition(value: unknown): value is ToolDefinition {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'aibuddy.tool';
}
