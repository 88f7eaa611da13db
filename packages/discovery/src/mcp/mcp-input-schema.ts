import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { InputIssue, InputValidation, JsonSchema } from '@aibuddy/registry';

/**
 * Deepest nesting of an MCP tool's input schema we accept. Real tool schemas nest a handful of
 * levels; past this a schema is hostile or broken, and recursive walkers (ours, the SDK's, the
 * providers') would overflow the stack on it.
 */
export const MAX_MCP_SCHEMA_DEPTH = 64;
/** Most nodes (objects, arrays, values) in one MCP tool's input schema. Real schemas have hundreds. */
export const MAX_MCP_SCHEMA_NODES = 50_000;

/**
 * Why an MCP input schema cannot be used, or `undefined` when it is within the limits. Walks the
 * value without recursion, so a 1,000-level schema is measured, not overflowed on, and stops as
 * soon as a limit is passed.
 */
export function mcpSchemaProblem(schema: unknown): string | undefined {
  const stack: Array<[unknown, number]> = [[schema, 1]];
  let nodes = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++nodes > MAX_MCP_SCHEMA_NODES) return `its input schema has more than ${MAX_MCP_SCHEMA_NODES} nodes`;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_MCP_SCHEMA_DEPTH) return `its input schema nests deeper than ${MAX_MCP_SCHEMA_DEPTH} levels`;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
      else nodes++;
    }
  }
  return undefined;
}

const OLD_DRAFTS = /json-schema\.org\/draft-0[4-7]\/schema/;
let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

// validateSchema: false — compiling the draft's meta-schema costs hundreds of ms on the first call;
// a broken schema still fails to compile (and the server then validates), which is all we need.
const AJV_OPTIONS = { strict: false, allErrors: true, validateFormats: false, validateSchema: false } as const;

// One shared instance per draft; `fresh` gives a private one, for a schema whose `$id` another tool
// already registered (two servers may ship the same schema id with different content).
function ajvFor(schema: JsonSchema, fresh = false): Ajv | Ajv2020 {
  const old = typeof schema.$schema === 'string' && OLD_DRAFTS.test(schema.$schema);
  if (fresh) return old ? new Ajv(AJV_OPTIONS) : new Ajv2020(AJV_OPTIONS);
  if (old) return (draft07 ??= new Ajv(AJV_OPTIONS));
  return (draft2020 ??= new Ajv2020(AJV_OPTIONS));
}

function compile(schema: JsonSchema): ValidateFunction | null {
  try {
    return ajvFor(schema).compile(schema);
  } catch {
    try {
      return ajvFor(schema, true).compile(schema);
    } catch {
      return null;
    }
  }
}

function issuesOf(errors: readonly ErrorObject[] | null | undefined): InputIssue[] {
  return (errors ?? []).slice(0, 20).map((e) => {
    const base = e.instancePath
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    const missing = e.keyword === 'required' ? (e.params as { missingProperty?: string }).missingProperty : undefined;
    return {
      path: [...base, ...(missing ? [missing] : [])].join('.'),
      message: missing ? 'is required' : (e.message ?? `fails "${e.keyword}"`),
    };
  });
}

/**
 * A validator for an MCP tool's input that follows the whole JSON Schema (`$ref`, including the
 * recursive `$ref: "#"`, `required` names with no matching property, `oneOf`, ...) through Ajv, the
 * validator the MCP SDK itself ships. It is compiled at the tool's first call, not at start-up:
 * a catalogue of 10,000 tools pays only for the tools the model uses. A schema Ajv cannot compile
 * leaves validation to the server, which checks its own input anyway.
 */
export function createMcpInputValidator(schema: JsonSchema): (input: unknown) => InputValidation<unknown> {
  let validate: ValidateFunction | null | undefined;
  return (input) => {
    // A failed compile (null) is not retried at every call.
    if (validate === undefined) validate = compile(schema);
    if (validate === null || validate(input)) return { success: true, value: input };
    return { success: false, issues: issuesOf(validate.errors) };
  };
}
