import type { OutputUnit, SchemaDraft } from '@cfworker/json-schema';
import type { InputIssue, JsonSchema } from '@aibuddy/registry';
import { cutForModel } from '../cut-for-model.js';

/**
 * Deepest nesting of an MCP tool's input schema we accept. Real tool schemas nest a handful of
 * levels; past this a schema is hostile or broken, and recursive walkers (ours, the SDK's, the
 * providers') would overflow the stack on it.
 */
export const MAX_MCP_SCHEMA_DEPTH = 64;
/** Most nodes (objects, arrays, values) in one MCP tool's input schema. Real schemas have hundreds. */
export const MAX_MCP_SCHEMA_NODES = 50_000;

/**
 * Why an MCP tool's schema cannot be used, or `undefined` when it is within the limits. Walks the
 * value without recursion, so a 1,000-level schema is measured, not overflowed on, and stops as
 * soon as a limit is passed. `which` names the schema in the reason ("input schema", "output schema").
 */
export function mcpSchemaProblem(schema: unknown, which = 'input schema'): string | undefined {
  const stack: Array<[unknown, number]> = [[schema, 1]];
  let nodes = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++nodes > MAX_MCP_SCHEMA_NODES) return `its ${which} has more than ${MAX_MCP_SCHEMA_NODES} nodes`;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_MCP_SCHEMA_DEPTH) return `its ${which} nests deeper than ${MAX_MCP_SCHEMA_DEPTH} levels`;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
      else nodes++;
    }
  }
  return undefined;
}

// Validation interprets the schema (@cfworker/json-schema, the validator the MCP SDK offers besides
// Ajv) instead of compiling it: Ajv generates and compiles code per schema, 1-2.5 ms for each tool
// the first time the model calls it, which a catalogue of thousands of third-party tools pays over
// and over; interpreting costs 0.03-0.08 ms (bench/scale, "call" steps).

/** Longest issue message sent back to the model (an `enum` of 10,000 values is not repeated whole). */
const MAX_ISSUE_MESSAGE = 300;
/** Most issues reported for one input. */
const MAX_ISSUES = 20;

/** The draft a schema declares (`$schema`); 2020-12 when it declares none. */
export function draftOf(schema: JsonSchema): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/json-schema\.org\/draft-0[3-4]\//.test(declared)) return '4';
  if (/json-schema\.org\/draft-0[5-7]\//.test(declared)) return '7';
  if (/json-schema\.org\/draft\/2019-09\//.test(declared)) return '2019-09';
  return '2020-12';
}

// Keywords whose value is a schema, an array of schemas, or a map of names to schemas.
const SCHEMA_VALUED = new Set([
  'not',
  'if',
  'then',
  'else',
  'items',
  'contains',
  'propertyNames',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
]);
const SCHEMA_ARRAYS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);

/**
 * A copy of the schema for the validator, without the keywords left to the server:
 * - `format`: an annotation in JSON Schema 2020-12, so a date written another way is not refused here;
 * - `pattern` and `patternProperties`: a server's regular expression run on the model's input can
 *   backtrack for hours (`^(a+)+$` on forty "a" and a "!") and would block the host, which cannot
 *   interrupt a running match. With `patternProperties` gone, `additionalProperties` and
 *   `unevaluatedProperties` go too (they would refuse the properties it matched): the check only widens;
 * - `uniqueItems`: the validator compares every pair (20,000 items took 1.8 s, 200,000 would take
 *   minutes), and the model chooses the length.
 * The copy also keeps the validator's bookkeeping (it marks the schema objects it walks) off the
 * schema the model is sent. Only schema positions are walked: a property named "format" stays.
 */
export function validatorCopy(schema: unknown): unknown {
  let droppedPatternProperties = false;
  const copy = copySchema(schema, (key, value, node) => {
    if (key === 'patternProperties') {
      droppedPatternProperties = true;
      return true;
    }
    return (
      ((key === 'format' || key === 'pattern') && typeof value === 'string') ||
      key === 'uniqueItems' ||
      (key === 'additionalProperties' && Object.hasOwn(node, 'patternProperties'))
    );
  });
  // `unevaluatedProperties` sees through `allOf`, `$ref` and the rest: once any patternProperties is
  // gone, none of them can be trusted.
  return droppedPatternProperties ? copySchema(copy, (key) => key === 'unevaluatedProperties') : copy;
}

/**
 * A copy of a schema in which the objects at schema positions are new, without the keys `drop`
 * rejects (given the key, its value and the object holding it). Values elsewhere (`enum`, `const`,
 * `default`, ...) are shared, never walked.
 */
function copySchema(node: unknown, drop: (key: string, value: unknown, holder: object) => boolean): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const sub = (value: unknown) => copySchema(value, drop);
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (drop(key, value, node)) continue;
    if (SCHEMA_ARRAYS.has(key) && Array.isArray(value)) put(copy, key, value.map(sub));
    else if (SCHEMA_VALUED.has(key)) put(copy, key, sub(value));
    else if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null && !Array.isArray(value))
      put(copy, key, Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, sub(schema)])));
    else put(copy, key, value);
  }
  return copy;
}

/** `target[key] = value` as an own property, also for a key "__proto__" (which assignment would make the prototype). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** `#/children/0/name` → `children.0.name` (the validator percent-encodes and escapes each part). */
function dottedPath(instanceLocation: string): string {
  return instanceLocation
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '')
    .map((part) => {
      let decoded = part;
      try {
        decoded = decodeURIComponent(part);
      } catch {
        // Not percent-encoded after all: keep it as it is.
      }
      return decoded.replace(/~1/g, '/').replace(/~0/g, '~');
    })
    .join('.');
}

// Errors that only say "a subschema below failed": the failure itself is reported too, at its path.
const WRAPPERS = new Set([
  'properties',
  'additionalProperties',
  'unevaluatedProperties',
  'dependentSchemas',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  '$ref',
  '$recursiveRef',
  'allOf',
]);
const REQUIRED = /^Instance does not have required property "(.*)"\.$/s;

/** The validator's errors as issues: each problem once, by its dotted path, without the wrappers above it. */
export function issuesOf(errors: readonly OutputUnit[]): InputIssue[] {
  const issues: InputIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    if (WRAPPERS.has(error.keyword)) continue;
    const path = dottedPath(error.instanceLocation);
    const missing = error.keyword === 'required' ? REQUIRED.exec(error.error)?.[1] : undefined;
    const issue: InputIssue =
      missing !== undefined
        ? { path: path === '' ? missing : `${path}.${missing}`, message: 'is required' }
        : error.keyword === 'false'
          ? { path, message: 'is not allowed' }
          : { path, message: cutForModel(error.error, MAX_ISSUE_MESSAGE) };
    const key = `${issue.path}\0${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
    if (issues.length === MAX_ISSUES) break;
  }
  return issues;
}
