import { Validator } from '@cfworker/json-schema';
import type { Schema } from '@cfworker/json-schema';
import type { InputIssue, InputValidation, JsonSchema } from '@aibuddy/registry';
import { draftOf, issuesOf, validatorCopy } from './mcp-input-schema.js';
import { schemaCheckWorker } from './schema-check-worker.js';
import type { SchemaCheckVerdict } from './schema-check-worker.js';

/**
 * Longest the check of one value against a server's schema may take, in ms (a tool's input, or the
 * structured content of its result). Real schemas check a value in well under a millisecond; past
 * this the schema is too costly for that value (see schema-check-worker.ts).
 */
export const MCP_SCHEMA_CHECK_TIMEOUT_MS = 2_000;

let nextSchemaId = 1;
/**
 * The worker's id and the validator's copy of each schema object, shared by every check of it: a
 * host builds a tool's definition again for each run, and the worker keeps one validator per id.
 */
const preparedBySchema = new WeakMap<object, { id: number; copy: unknown; draft: ReturnType<typeof draftOf> }>();

function prepare(schema: JsonSchema): { id: number; copy: unknown; draft: ReturnType<typeof draftOf> } {
  let prepared = preparedBySchema.get(schema);
  if (!prepared) {
    prepared = { id: nextSchemaId++, copy: validatorCopy(schema), draft: draftOf(schema) };
    preparedBySchema.set(schema, prepared);
  }
  return prepared;
}

/** Runs the validator in the calling thread: where no worker can run, and for the synchronous API. */
export function checkInThread(schema: JsonSchema): (value: unknown) => SchemaCheckVerdict {
  let validator: Validator | undefined;
  return (value) => {
    try {
      validator ??= new Validator(validatorCopy(schema) as Schema, draftOf(schema), false);
      const result = validator.validate(value);
      return result.valid ? { kind: 'valid' } : { kind: 'invalid', errors: result.errors };
    } catch (error) {
      // Deep nesting, or so many problems that the validator's list of them overflows the stack.
      const deep = error instanceof RangeError && /call stack/i.test(error.message);
      return deep ? { kind: 'too-deep' } : { kind: 'unusable' };
    }
  };
}

/**
 * A check of values against one of a server's schemas that cannot block the host: on the schema-check
 * worker, with a deadline of {@link MCP_SCHEMA_CHECK_TIMEOUT_MS} and the caller's abort signal (which
 * rejects with its reason). The validator's copy of the schema is made at the first check; once the
 * validator cannot use the schema, every later check answers `unusable` at once. Where no worker can
 * run (a bundle without the validator's file), the check runs in the calling thread.
 */
export function createBoundedSchemaCheck(
  schema: JsonSchema,
): (value: unknown, signal?: AbortSignal) => Promise<SchemaCheckVerdict> {
  let inThread: ((value: unknown) => SchemaCheckVerdict) | undefined;
  let unusable = false;
  return async (value, signal) => {
    if (unusable) return { kind: 'unusable' };
    const worker = schemaCheckWorker();
    let verdict: SchemaCheckVerdict;
    if (worker) {
      const prepared = prepare(schema);
      verdict = await worker.check(prepared.id, prepared.copy, prepared.draft, value, {
        timeoutMs: MCP_SCHEMA_CHECK_TIMEOUT_MS,
        ...(signal ? { signal } : {}),
      });
    } else verdict = { kind: 'unavailable', message: 'no worker' };
    if (verdict.kind === 'unavailable') {
      inThread ??= checkInThread(schema);
      verdict = inThread(value);
    }
    if (verdict.kind === 'unusable') unusable = true;
    return verdict;
  };
}

/**
 * A verdict as an input validation: `valid` and `unusable` (the server checks its own input) pass;
 * the rest are issues, `tooDeep` and the other sentences naming what the caller can do.
 */
export function verdictToValidation(verdict: SchemaCheckVerdict, value: unknown, tooDeep: string): InputValidation<unknown> {
  const issue = (message: string): { success: false; issues: InputIssue[] } => ({
    success: false,
    issues: [{ path: '', message }],
  });
  switch (verdict.kind) {
    case 'valid':
    case 'unusable':
      return { success: true, value };
    case 'invalid':
      return { success: false, issues: issuesOf(verdict.errors) };
    case 'too-deep':
      return issue(tooDeep);
    case 'timeout':
      return issue(
        `could not be checked within ${MCP_SCHEMA_CHECK_TIMEOUT_MS / 1000} s (the schema is too costly to evaluate on this value); send a smaller, flatter input`,
      );
    case 'crashed':
    case 'unavailable':
      return issue(`could not be checked (${verdict.message})`);
  }
}
