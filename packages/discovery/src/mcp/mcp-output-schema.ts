import { ToolError } from '@aibuddy/registry';
import type { JsonSchema } from '@aibuddy/registry';
import { createMcpSchemaCheck, mcpSchemaProblem } from './mcp-input-schema.js';
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
 * A check of a tool's results against its output schema, built at its first result. It throws a
 * `ToolError` at stage `verification` when a result that is not an error has no structured content,
 * or structured content the schema refuses (each problem by its path); the call has run by then,
 * so side effects are possible. `isError` results are the tool's own failure and are not checked.
 */
export function createMcpOutputCheck(
  tool: Pick<McpToolInfo, 'name' | 'server' | 'originalName'>,
  schema: JsonSchema,
): (result: McpCallResult) => void {
  const check = createMcpSchemaCheck(schema, 'nests too deeply or has too many problems to check');
  const fail = (what: string, result: McpCallResult, issues?: unknown) =>
    new ToolError(`the call ran, but its result ${what}.`, {
      stage: 'verification',
      toolName: tool.name,
      sideEffectsPossible: true,
      details: { server: tool.server, tool: tool.originalName, result, ...(issues ? { issues } : {}) },
      hint: 'Do not rely on this result. Check whether the action took effect before calling it again.',
    });
  return (result) => {
    if (result.isError) return;
    if (result.structuredContent === undefined || result.structuredContent === null)
      throw fail('has no structured content, which the output schema its server declares requires', result);
    const verdict = check(result.structuredContent);
    if (verdict.success) return;
    const listed = verdict.issues
      .map((issue) => `${issue.path === '' ? 'structuredContent' : `structuredContent.${issue.path}`}: ${issue.message}`)
      .join('; ');
    throw fail(`does not match the output schema the server declares (${listed})`, result, verdict.issues);
  };
}
