import { Validator } from '@cfworker/json-schema';
import type { Schema } from '@cfworker/json-schema';
import type { InputIssue, InputValidation, JsonSchema } from '@aibuddy/registry';
import { draftOf, issuesOf, validatorCopy } from './mcp-input-schema.js';
import { isStackOverflow, schemaCheckWorker } from './schema-check-worker.js';
import type { SchemaCheckVerdict } from './schema-check-worker.js';

/**
 * Longest the check of one value against a server's schema may take, in ms (a tool's input, or the
 * structured content of its result). Real schemas check a value in well under a millisecond; past
 * this the schema is too costly for that value (see schema-check-worker.ts).
 */
export const MCP_SCHEMA_CHECK_TIMEOUT_MS = 2_000;

/**
 * Largest (schema nodes × value nodes) checked in the calling thread, for a schema without `$ref`.
 * Such a schema is a tree, so the validator applies each of its nodes at most once to each node of
 * the value: the work is bounded by the product (milliseconds at this size), and the worker's
 * copy and hand-over (0.1 ms, and 30 ms to start it) would cost more than the check. Real tool
 * schemas (tens of nodes) and model inputs (tens of nodes) are far below it.
 */
export const IN_THREAD_CHECK_BUDGET = 20_000;
// Keywords through which a schema can apply itself again, and with it exponential work.
const REFERENCES = new Set(['$ref', '$recursiveRef', '$dynamicRef']);

interface Prepared {
  /** The worker's id for this schema. */
  id: number;
  /** The validator's copy (see `validatorCopy`). */
  copy: unknown;
  draft: ReturnType<typeof draftOf>;
  /** Nodes of the copy (objects, arrays, values), and whether any key is a reference. */
  nodes: number;
  references: boolean;
  /** The validator for checks in the calling thread, built at the first one. */
  validator?: Validator;
  /** Set once the validator has failed on the schema (not on a value): the server checks from then on. */
  unusable: boolean;
}

/** A verdict as callers see it: a worker that cannot run has been replaced by a check in this thread. */
export type CheckVerdict = Exclude<SchemaCheckVerdict, { kind: 'unavailable' }>;

let nextSchemaId = 1;
/**
 * The worker's id and the validator's copy of each schema object, shared by every check of it: a
 * host builds a tool's definition again for each run, and the worker keeps one validator per id.
 */
const preparedBySchema = new WeakMap<object, Prepared>();

function prepare(schema: JsonSchema): Prepared {
  let prepared = preparedBySchema.get(schema);
  if (!prepared) {
    const copy = validatorCopy(schema);
    let references = false;
    const nodes = countNodes(copy, Number.POSITIVE_INFINITY, (key) => {
      if (REFERENCES.has(key)) references = true;
    });
    prepared = { id: nextSchemaId++, copy, draft: draftOf(schema), nodes, references, unusable: false };
    preparedBySchema.set(schema, prepared);
  }
  return prepared;
}

/** Nodes of a JSON value (objects, arrays, values, and object keys), counted up to just past `limit`. */
function countNodes(value: unknown, limit: number, onKey?: (key: string) => void): number {
  const stack: unknown[] = [value];
  let nodes = 0;
  while (stack.length > 0 && nodes <= limit) {
    const node = stack.pop();
    nodes++;
    if (typeof node !== 'object' || node === null) continue;
    if (Array.isArray(node)) for (const child of node) stack.push(child);
    else
      for (const [key, child] of Object.entries(node)) {
        nodes++;
        onKey?.(key);
        stack.push(child);
      }
  }
  return nodes;
}

/** Whether checking `value` against the prepared schema is cheap enough for the calling thread. */
function cheapInThread(prepared: Prepared, value: unknown): boolean {
  if (prepared.references) return false;
  const limit = Math.floor(IN_THREAD_CHECK_BUDGET / Math.max(1, prepared.nodes));
  return countNodes(value, limit) <= limit;
}

/** Checks `value` in the calling thread: where no worker can run, for cheap checks and for the synchronous API. */
export function checkInThread(schema: JsonSchema, value: unknown): CheckVerdict {
  const prepared = prepare(schema);
  if (prepared.unusable) return { kind: 'unusable' };
  try {
    prepared.validator ??= new Validator(prepared.copy as Schema, prepared.draft, false);
    const result = prepared.validator.validate(value);
    return result.valid ? { kind: 'valid' } : { kind: 'invalid', errors: result.errors };
  } catch (error) {
    // Deep nesting, or so many problems that the validator's list of them overflows the stack.
    if (isStackOverflow(error)) return { kind: 'too-deep' };
    prepared.unusable = true;
    return { kind: 'unusable' };
  }
}

/**
 * A check of values against one of a server's schemas that cannot block the host: on the schema-check
 * worker, with a deadline of {@link MCP_SCHEMA_CHECK_TIMEOUT_MS} and the caller's abort signal (which
 * rejects with its reason), unless its cost is bounded and small ({@link IN_THREAD_CHECK_BUDGET}: no
 * `$ref`, a small value), when it runs in the calling thread. The validator's copy of the schema is
 * made at the first check; once the validator cannot use the schema, every later check answers
 * `unusable` at once. Where no worker can run (a bundle without the validator's file), the check runs
 * in the calling thread. `lane` (the server) is whose turn the check waits for on the worker: a
 * server's slow checks do not hold up another server's.
 */
export function createBoundedSchemaCheck(
  schema: JsonSchema,
  lane?: string,
): (value: unknown, signal?: AbortSignal) => Promise<CheckVerdict> {
  return async (value, signal) => {
    const prepared = prepare(schema);
    if (prepared.unusable) return { kind: 'unusable' };
    const worker = cheapInThread(prepared, value) ? null : schemaCheckWorker();
    const verdict = worker
      ? await worker.check(prepared.id, prepared.copy, prepared.draft, value, {
          timeoutMs: MCP_SCHEMA_CHECK_TIMEOUT_MS,
          ...(signal ? { signal } : {}),
          ...(lane !== undefined ? { lane } : {}),
        })
      : undefined;
    if (!verdict || verdict.kind === 'unavailable') return checkInThread(schema, value);
    if (verdict.kind === 'unusable') prepared.unusable = true;
    return verdict;
  };
}

/**
 * A verdict as an input validation: `valid` and `unusable` (the server checks its own input) pass;
 * the rest are issues, `tooDeep` and the other sentences naming what the caller can do.
 */
export function verdictToValidation(verdict: CheckVerdict, value: unknown, tooDeep: string): InputValidation<unknown> {
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
      return issue(`could not be checked (${verdict.message})`);
  }
}
