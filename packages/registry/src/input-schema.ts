import { z } from 'zod';
import { ToolDefinitionError } from './errors.js';

/** A JSON Schema object (draft 2020-12 / draft-07 subset as used by tool APIs). */
export type JsonSchema = { [key: string]: unknown };

/** The input schema forms `defineTool` accepts. */
export type ToolInputSchema =
  /** A zod (v4) object schema. */
  | z.ZodType
  /** A plain JSON Schema object whose top level is `{ "type": "object" }`. */
  | JsonSchema;

/** One validation issue, in a form a model can act on. */
export interface InputIssue {
  /** Dotted path to the offending field (`""` for the whole input). */
  path: string;
  /** What is wrong. */
  message: string;
}

/** The result of validating tool input. */
export type InputValidation<T> = { success: true; value: T } | { success: false; issues: InputIssue[] };

/** A schema normalized at definition time: its JSON Schema plus a synchronous validator. */
export interface NormalizedInputSchema<T = unknown> {
  /** The JSON Schema sent to models; its top level is always `type: "object"`. */
  jsonSchema: JsonSchema;
  /** Validates (and, for zod, parses with defaults) an input. */
  validate(input: unknown): InputValidation<T>;
}

function isThenable(value: unknown): boolean {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

function toIssues(error: z.ZodError): InputIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/**
 * Produces the JSON Schema and validator of a tool's input, synchronously.
 * Throws `ToolDefinitionError` when that is impossible or the top level is not an object.
 */
export function normalizeInputSchema<T = unknown>(toolName: string, schema: unknown): NormalizedInputSchema<T> {
  if (schema === undefined || schema === null) {
    throw new ToolDefinitionError(
      toolName,
      'inputSchema is missing. Give a zod object schema or a JSON Schema with top-level type "object".',
    );
  }
  if (isThenable(schema)) {
    throw new ToolDefinitionError(
      toolName,
      'inputSchema is a promise: its JSON Schema would only be available asynchronously. Resolve it before calling defineTool.',
    );
  }
  if (typeof schema === 'function') {
    throw new ToolDefinitionError(
      toolName,
      'inputSchema is a function (a lazy schema): its JSON Schema is not available at definition time. Pass the schema itself.',
    );
  }
  if (isZodSchema(schema)) {
    let jsonSchema: JsonSchema;
    try {
      jsonSchema = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'throw' }) as JsonSchema;
    } catch (error) {
      throw new ToolDefinitionError(
        toolName,
        `inputSchema cannot be turned into JSON Schema: ${(error as Error).message}. Use only JSON-representable zod types.`,
      );
    }
    assertObjectTop(toolName, jsonSchema);
    delete jsonSchema.$schema;
    return {
      jsonSchema,
      validate(input) {
        // Async refinements cannot run inside a synchronous validator; report them as a definition bug.
        const result = schema.safeParse(input);
        return result.success ? { success: true, value: result.data as T } : { success: false, issues: toIssues(result.error) };
      },
    };
  }
  if (typeof schema !== 'object') {
    throw new ToolDefinitionError(toolName, `inputSchema must be an object, got ${typeof schema}.`);
  }
  // An AI SDK `Schema` (from `jsonSchema()`): its JSON Schema may be a promise.
  const record = schema as Record<string, unknown>;
  if ('jsonSchema' in record && !('type' in record)) {
    if (isThenable(record.jsonSchema)) {
      throw new ToolDefinitionError(toolName, 'inputSchema.jsonSchema is a promise: it would only be available asynchronously.');
    }
    return normalizeInputSchema(toolName, record.jsonSchema);
  }
  if ('~standard' in record) {
    throw new ToolDefinitionError(
      toolName,
      'inputSchema is a Standard Schema without a synchronous JSON Schema. Use a zod v4 schema or a plain JSON Schema object.',
    );
  }
  const jsonSchema = structuredClone(record) as JsonSchema;
  assertObjectTop(toolName, jsonSchema);
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(jsonSchema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw new ToolDefinitionError(toolName, `inputSchema is not a usable JSON Schema: ${(error as Error).message}`);
  }
  return {
    jsonSchema,
    validate(input) {
      const result = validator.safeParse(input);
      // Plain JSON Schema tools receive their input unchanged (no zod transforms).
      return result.success ? { success: true, value: input as T } : { success: false, issues: toIssues(result.error) };
    },
  };
}

function assertObjectTop(toolName: string, jsonSchema: JsonSchema): void {
  if (jsonSchema.type !== 'object') {
    const got = jsonSchema.type === undefined ? 'no "type"' : `type ${JSON.stringify(jsonSchema.type)}`;
    throw new ToolDefinitionError(
      toolName,
      `inputSchema must have top-level type "object" (tool APIs send named arguments), got ${got}. Wrap the value in an object.`,
    );
  }
}
