import { ToolError } from '@aibuddy/registry';
import type { InputIssue, JsonSchema } from '@aibuddy/registry';
import { createBoundedSchemaCheck, MCP_SCHEMA_CHECK_TIMEOUT_MS, verdictToValidation } from './bounded-schema-check.js';
import { mcpSchemaProblem } from './mcp-input-schema.js';
import type { McpCallResult, McpToolInfo } from './mcp-tool.js';

// MCP (2025-06-18): a tool may declare an `outputSchema` for the structured content of its results;
// servers MUST conform to it and clients SHOULD validate. A model (or the code it writes) relies on
// that shape, so a result that breaks it fails at `verification` instead of passing on as if valid,
// as the MCP SDK's own client does. The check is the one the input gets (bounded-schema-check.ts):
// the same keywords left out, on the schema-check worker with a deadline. The server wrote both the
// schema and the result, so a hostile one could otherwise block the host with its own regular
// expression or an exponentially costly schema.

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
 * A check of a tool's results against its output schema. It rejects with a `ToolError` at stage
 * `verification` when a result that is not an error has no structured content, has structured
 * content the schema refuses (each problem by its path), or cannot be checked within
 * `MCP_SCHEMA_CHECK_TIMEOUT_MS`; the call has run by then, so side effects are possible. `isError`
 * results are the tool's own failure and are not checked. The check runs on the schema-check worker,
 * so no schema can block the host; a schema the validator cannot use is not checked from then on.
 */
export function createMcpOutputCheck(
  tool: Pick<McpToolInfo, 'name' | 'server' | 'originalName'>,
  schema: JsonSchema,
): (result: McpCallResult, options?: { signal?: AbortSignal }) => Promise<void> {
  const check = createBoundedSchemaCheck(schema, tool.server);
  const fail = (what: string, result: McpCallResult, issues?: InputIssue[]) =>
    new ToolError(`the call ran, but its result ${what}.`, {
      stage: 'verification',
      toolName: tool.name,
      sideEffectsPossible: true,
      details: { server: tool.server, tool: tool.originalName, result, ...(issues ? { issues } : {}) },
      hint: 'Do not rely on this result. Check whether the action took effect before calling it again.',
    });
  return async (result, options = {}) => {
    if (result.isError) return;
    if (result.structuredContent === undefined || result.structuredContent === null)
      throw fail('has no structured content, which the output schema its server declares requires', result);
    const verdict = await check(result.structuredContent, options.signal);
    switch (verdict.kind) {
      case 'valid':
      case 'unusable':
        return;
      case 'timeout':
        throw fail(
          `could not be checked against the output schema its server declares within ${MCP_SCHEMA_CHECK_TIMEOUT_MS / 1000} s (the schema is too costly to evaluate on this result)`,
          result,
        );
      case 'crashed':
        throw fail(`could not be checked against the output schema its server declares (${verdict.message})`, result);
      default: {
        const validation = verdictToValidation(verdict, result.structuredContent, TOO_DEEP);
        const issues = validation.success ? [] : validation.issues;
        const listed = issues
          .map((issue) => `${issue.path === '' ? 'structuredContent' : `structuredContent.${issue.path}`}: ${issue.message}`)
          .join('; ');
        throw fail(`does not match the output schema the server declares (${listed})`, result, issues);
      }
    }
  };
}

const TOO_DEEP = 'nests too deeply or has too many problems to check';
