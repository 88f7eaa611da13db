import type { SchemaDraft } from '@cfworker/json-schema';
import { ToolError } from '@aibuddy/registry';
import type { InputIssue, InputValidation, JsonSchema } from '@aibuddy/registry';
import { createMcpSchemaCheck, draftOf, issuesOf, mcpSchemaProblem, validatorCopy } from './mcp-input-schema.js';
import { schemaCheckWorker } from './schema-check-worker.js';
import type { McpCallResult, McpToolInfo } from './mcp-tool.js';

// MCP (2025-06-18): a tool may declare an `outputSchema` for the structured content of its results;
// servers MUST conform to it and clients SHOULD validate. A model (or the code it writes) relies on
// that shape, so a result that breaks it fails at `verification` instead of passing on as if valid,
// as the MCP SDK's own client does. The check is the one the input gets (mcp-input-schema.ts), with
// the same keywords left out: the server wrote both the schema and the result, and a hostile one
// could otherwise block the host with its own regular expression.

/**
 * The output schema a listed tool declares, when its results can be checked against it: a JSON
 * object schema (`type: "object"`, as the spec requires) within the depth and size limits. Otherwise
 * `problem` says why it is not used; the tool stays, its results unchecked.
 */
export function readMcpOutputSchema(raw: unknown): { schema?: JsonSchema; problem?: string } {
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || (raw as JsonSchema).type !== 'object')
    return { problem: 'its output schema is not an object schema (type "object")' };
  const problem = mcpSchemaProblem(raw, 'output schema');
  return problem ? { problem } : { schema: raw as JsonSchema };
}

/**
 * Longest a check of one result may take, in ms. Real output schemas check a result in well under a
 * millisecond; past this the schema is too costly for that result (see schema-check-worker.ts).
 */
export const MCP_OUTPUT_CHECK_TIMEOUT_MS = 2_000;

const TOO_DEEP = 'nests too deeply or has too many problems to check';
let nextSchemaId = 1;

/**
 * A check of a tool's results against its output schema. It rejects with a `ToolError` at stage
 * `verification` when a result that is not an error has no structured content, has structured
 * content the schema refuses (each problem by its path), or cannot be checked within
 * {@link MCP_OUTPUT_CHECK_TIMEOUT_MS}; the call has run by then, so side effects are possible.
 * `isError` results are the tool's own failure and are not checked. The check runs on a worker
 * thread, so no schema can block the host; a schema the validator cannot use is not checked from then
 * on. Where no worker can run (a bundle without the validator's file), it runs in the calling thread.
 */
export function createMcpOutputCheck(
  tool: Pick<McpToolInfo, 'name' | 'server' | 'originalName'>,
  schema: JsonSchema,
): (result: McpCallResult, options?: { signal?: AbortSignal }) => Promise<void> {
  const fail = (what: string, result: McpCallResult, issues?: InputIssue[]) =>
    new ToolError(`the call ran, but its result ${what}.`, {
      stage: 'verification',
      toolName: tool.name,
      sideEffectsPossible: true,
      details: { server: tool.server, tool: tool.originalName, result, ...(issues ? { issues } : {}) },
      hint: 'Do not rely on this result. Check whether the action took effect before calling it again.',
    });
  const refused = (result: McpCallResult, issues: InputIssue[]) => {
    const listed = issues
      .map((issue) => `${issue.path === '' ? 'structuredContent' : `structuredContent.${issue.path}`}: ${issue.message}`)
      .join('; ');
    return fail(`does not match the output schema the server declares (${listed})`, result, issues);
  };
  // Built at the first result: the copy the validator walks, its draft, and the worker's id for it.
  let prepared: { id: number; copy: unknown; draft: SchemaDraft } | undefined;
  let inThread: ((value: unknown) => InputValidation<unknown>) | undefined;
  let unusable = false;
  return async (result, options = {}) => {
    if (result.isError || unusable) return;
    if (result.structuredContent === undefined || result.structuredContent === null)
      throw fail('has no structured content, which the output schema its server declares requires', result);
    const worker = schemaCheckWorker();
    if (!worker) {
      inThread ??= createMcpSchemaCheck(schema, TOO_DEEP);
      const verdict = inThread(result.structuredContent);
      if (!verdict.success) throw refused(result, verdict.issues);
      return;
    }
    prepared ??= { id: nextSchemaId++, copy: validatorCopy(schema), draft: draftOf(schema) };
    const verdict = await worker.check(prepared.id, prepared.copy, prepared.draft, result.structuredContent, {
      timeoutMs: MCP_OUTPUT_CHECK_TIMEOUT_MS,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    switch (verdict.kind) {
      case 'valid':
        return;
      case 'invalid':
        throw refused(result, issuesOf(verdict.errors));
      case 'too-deep':
        throw refused(result, [{ path: '', message: TOO_DEEP }]);
      case 'unusable':
        unusable = true;
        return;
      case 'timeout':
        throw fail(
          `could not be checked against the output schema its server declares within ${MCP_OUTPUT_CHECK_TIMEOUT_MS / 1000} s (the schema is too costly to evaluate on this result)`,
          result,
        );
      case 'crashed':
        throw fail(`could not be checked against the output schema its server declares (${verdict.message})`, result);
    }
  };
}
