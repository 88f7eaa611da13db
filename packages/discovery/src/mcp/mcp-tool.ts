import { defineTool, ToolError } from '@aibuddy/registry';
import type { AnyToolDefinition, JsonSchema, ModelOutput } from '@aibuddy/registry';
import { mcpCallImpact } from './mcp-confirmation.js';
import type { McpToolAnnotations } from './mcp-confirmation.js';
import { createMcpInputCheck } from './mcp-input-check.js';
import { createMcpOutputCheck } from './mcp-output-schema.js';

/** One MCP tool as the catalog knows it. */
export interface McpToolInfo {
  /** The name the model sees (`server__tool`, see `namespaceToolName`). */
  name: string;
  /** The tool's name on its server (sent in `tools/call`). */
  originalName: string;
  /** The server (its name in the config). */
  server: string;
  /** The description the server gave (a short fallback when it gave none). */
  description: string;
  /** The input JSON Schema the model sees (top level always `type: "object"`). */
  inputSchema: JsonSchema;
  /** Whether the server's schema had to be replaced or completed (see `normalizeMcpInputSchema`). */
  schemaFallback: boolean;
  /** The schema of its results' structured content, when the server declares a usable one (see `readMcpOutputSchema`). */
  outputSchema?: JsonSchema;
  /** The hints the server gave about the tool (`readOnlyHint`, `destructiveHint`, ...), when it gave any. */
  annotations?: McpToolAnnotations;
  /** Each call waits for a person's confirmation (see `mcpCallNeedsConfirmation`). */
  confirm?: boolean;
}

/** A content block of an MCP `CallToolResult` (the fields we read). */
export interface McpContentBlock {
  /** `text`, `image`, `audio`, `resource`, `resource_link`, ... */
  type: string;
  [key: string]: unknown;
}

/** The MCP `CallToolResult` fields we read. */
export interface McpCallResult {
  /** Unstructured content blocks. */
  content?: McpContentBlock[];
  /** Structured result, when the tool declares an output schema. */
  structuredContent?: Record<string, unknown>;
  /** The tool reported a failure (its content says what). */
  isError?: boolean;
  [key: string]: unknown;
}

const INVALID_PARAMS_RESULT = /^MCP error -32602\b/;
const PERMISSIVE_SCHEMA: JsonSchema = { type: 'object', properties: {}, additionalProperties: true };

/**
 * Makes an MCP tool's input schema usable by tool APIs, which require a top-level object:
 * a schema without `type` but with `properties` gets `type: "object"`; anything else that is not
 * an object schema becomes a permissive object schema (the server still validates its input).
 */
export function normalizeMcpInputSchema(schema: unknown): { schema: JsonSchema; fallback: boolean } {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { schema: structuredClone(PERMISSIVE_SCHEMA), fallback: true };
  }
  const record = schema as JsonSchema;
  if (record.type === 'object') return { schema: record, fallback: false };
  if (record.type === undefined && typeof record.properties === 'object' && record.properties !== null) {
    return { schema: { ...record, type: 'object' }, fallback: true };
  }
  return { schema: structuredClone(PERMISSIVE_SCHEMA), fallback: true };
}

/** Calls an MCP tool by its original name (what the catalog injects into each definition). */
export type McpToolCaller = (
  info: McpToolInfo,
  args: Record<string, unknown>,
  options: { signal: AbortSignal },
) => Promise<McpCallResult>;

function textOf(content: readonly McpContentBlock[] | undefined): string {
  return (content ?? [])
    .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

/**
 * The model's view of an MCP result: text when every block is text, the structured content as
 * JSON when there is nothing else, and a content list (text, images, files) otherwise.
 */
export function mcpResultToModelOutput(result: McpCallResult): ModelOutput {
  const content = Array.isArray(result.content) ? result.content : [];
  if (content.length === 0) {
    if (result.structuredContent !== undefined) return { type: 'json', value: result.structuredContent as never };
    return { type: 'text', value: '(the tool returned no content)' };
  }
  if (content.every((b) => b.type === 'text')) return { type: 'text', value: textOf(content) };
  const parts: Array<{ type: 'text'; text: string } | { type: string; [key: string]: unknown }> = [];
  for (const block of content) {
    switch (block.type) {
      case 'text':
        parts.push({ type: 'text', text: String(block.text ?? '') });
        break;
      case 'image':
        parts.push({ type: 'image-data', data: String(block.data ?? ''), mediaType: String(block.mimeType ?? 'image/png') });
        break;
      case 'audio':
        parts.push({
          type: 'file-data',
          data: String(block.data ?? ''),
          mediaType: String(block.mimeType ?? 'application/octet-stream'),
        });
        break;
      case 'resource': {
        const resource = (block.resource ?? {}) as Record<string, unknown>;
        if (typeof resource.text === 'string')
          parts.push({ type: 'text', text: `[resource ${String(resource.uri ?? '')}]\n${resource.text}` });
        else if (typeof resource.blob === 'string') {
          parts.push({
            type: 'file-data',
            data: resource.blob,
            mediaType: String(resource.mimeType ?? 'application/octet-stream'),
          });
        }
        break;
      }
      case 'resource_link':
        parts.push({ type: 'text', text: `[resource link] ${String(block.name ?? '')} ${String(block.uri ?? '')}`.trim() });
        break;
      default:
        parts.push({ type: 'text', text: JSON.stringify(block) });
    }
  }
  return { type: 'content', value: parts };
}

/**
 * Turns an MCP tool into a `ToolDefinition` that `createAiTools` runs. The model sees the
 * namespaced name and the server's schema; the call goes out under the original name. An
 * `isError` result becomes a `ToolError` at stage `execution` carrying the tool's own message; a
 * result that breaks the tool's declared output schema, one at stage `verification`.
 */
export function createMcpToolDefinition(info: McpToolInfo, call: McpToolCaller): AnyToolDefinition {
  let checkOutput: ((result: McpCallResult, options: { signal: AbortSignal }) => Promise<void>) | undefined;
  const spec = {
    name: info.name,
    description: info.description,
    execute: async (input: unknown, context: { signal: AbortSignal }) => {
      const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
      const result = await call(info, args, { signal: context.signal });
      if (result.isError) {
        const text =
          textOf(result.content) ||
          (result.structuredContent ? JSON.stringify(result.structuredContent) : 'the tool reported an error');
        // Servers built on the SDK's McpServer report rejected arguments as an isError result
        // carrying the JSON-RPC InvalidParams code: that is the model's input, not the tool failing.
        const rejectedInput = INVALID_PARAMS_RESULT.test(text);
        throw new ToolError(text, {
          stage: rejectedInput ? 'parameters' : 'execution',
          toolName: info.name,
          sideEffectsPossible: !rejectedInput,
          details: { server: info.server, tool: info.originalName, result },
          ...(rejectedInput ? { hint: "Fix the input to match the tool's schema and call again." } : {}),
        });
      }
      if (info.outputSchema) {
        checkOutput ??= createMcpOutputCheck(info, info.outputSchema);
        await checkOutput(result, { signal: context.signal });
      }
      return result;
    },
    toModelOutput: ({ output }: { output: McpCallResult }) => mcpResultToModelOutput(output),
  };
  // The model sees the server's schema as it is; input is checked against it by our validator (set
  // up at the first call, on the schema-check worker), so every JSON Schema the server can write is
  // enforced, `$ref` and all, and none can block the host.
  const definition = defineTool({
    ...spec,
    inputSchema: PERMISSIVE_SCHEMA,
    ...(info.confirm ? { impact: (input: unknown) => mcpCallImpact(info, input) } : {}),
  });
  return { ...definition, inputJsonSchema: info.inputSchema, validate: createMcpInputCheck(info.inputSchema, info.server) };
}
