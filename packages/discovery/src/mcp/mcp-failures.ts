/**
 * How MCP failures are told to the model and the host: a server that does not start becomes an
 * `McpServerStartError` with a hint, a failed `tools/call` a `ToolError` whose stage says whether
 * the input, the server or the connection was at fault.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ToolError } from '@aibuddy/registry';
import { McpServerStartError } from '../errors.js';
import type { McpServerConfig } from './config.js';
import type { McpToolInfo } from './mcp-tool.js';
import { ProcessGroupStdioTransport } from './process-group-transport.js';

/** Thrown by the start-up deadline; turned into an `McpServerStartError` with `timedOut`. */
export class StartTimeout extends Error {}

/** The real cause when our transport ended the connection (a message over the size limit). */
export function transportFailure(transport: Transport | undefined): Error | undefined {
  return transport instanceof ProcessGroupStdioTransport ? transport.failure : undefined;
}

/** True when the error means the connection is gone (closed, refused, reset), not that the call failed. */
export function isTransportFailure(error: unknown): boolean {
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown; cause?: { code?: unknown } }).cause?.code ?? (error as { code?: unknown }).code;
  return (
    error.name === 'TypeError' ||
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    /not connected|fetch failed|socket hang up/i.test(error.message)
  );
}

/** What a start-up failure is reported with. */
export interface StartFailure {
  /** The server's name in the config. */
  server: string;
  /** Its entry (for the hint). */
  config: McpServerConfig;
  /** The start-up timeout that applied. */
  timeoutMs: number;
  /** The last lines the server wrote to stderr. */
  stderrTail: string;
}

/** The error for a server that did not start, with a hint that names the fix. */
export function startError(error: unknown, { server, config, timeoutMs, stderrTail }: StartFailure): McpServerStartError {
  if (error instanceof StartTimeout) {
    return new McpServerStartError(server, `no answer within ${timeoutMs} ms (start-up timeout).`, {
      stderrTail,
      timedOut: true,
      hint: 'Check that the command starts an MCP server on stdio (or the URL is an MCP endpoint), or raise "startupTimeoutMs" for slow servers.',
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const hint =
    code === 'ENOENT'
      ? `The command "${config.type === 'stdio' ? config.command : ''}" was not found; install it or use a full path.`
      : config.type === 'http'
        ? 'Check that the server is running and the URL points to its MCP endpoint.'
        : 'See the stderr lines above; fix the server or its arguments.';
  return new McpServerStartError(server, message, { stderrTail, cause: error, hint });
}

/** What a call failure is reported with. */
export interface CallFailure {
  /** The server's name in the config. */
  server: string;
  /** The tool that was called. */
  info: McpToolInfo;
  /** The transport the call went over (its own failure is the real cause when it has one). */
  transport: Transport | undefined;
  /** The last lines the server wrote to stderr. */
  stderrTail: string;
  /** The call timeout that applied. */
  callTimeoutMs: number;
}

/** The message of a failed call: the transport's own failure when it ended the connection. */
export function callFailureMessage(error: unknown, transport: Transport | undefined): string {
  const failure = transportFailure(transport);
  return failure ? failure.message : error instanceof Error ? error.message : String(error);
}

/**
 * The `ToolError` for a failed `tools/call`: the connection lost, a timeout or a server error →
 * `execution`; arguments the server rejects → `parameters`; an unknown tool → `discovery`.
 */
export function callError(error: unknown, { server, info, transport, stderrTail, callTimeoutMs }: CallFailure): ToolError {
  const message = callFailureMessage(error, transport);
  const base = { toolName: info.name, cause: error, details: { server, tool: info.originalName } };
  if (isTransportFailure(error)) {
    return new ToolError(
      `MCP server "${server}" disconnected during the call (${message}).${stderrTail ? `\n--- stderr (last lines) ---\n${stderrTail}` : ''}`,
      {
        ...base,
        stage: 'execution',
        sideEffectsPossible: true,
        hint: 'The call may or may not have taken effect. The server is reconnecting; its tools are unavailable until it is back.',
      },
    );
  }
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout) {
      return new ToolError(`MCP server "${server}" did not answer within ${callTimeoutMs} ms.`, {
        ...base,
        stage: 'execution',
        sideEffectsPossible: true,
      });
    }
    if (error.code === ErrorCode.InvalidParams) {
      return new ToolError(`the server rejected the arguments: ${message}`, {
        ...base,
        stage: 'parameters',
        hint: "Fix the input to match the tool's schema and call again.",
      });
    }
    if (error.code === ErrorCode.MethodNotFound) {
      return new ToolError(`the server does not know this tool: ${message}`, { ...base, stage: 'discovery', retryable: false });
    }
  }
  return new ToolError(`MCP call failed: ${message}`, { ...base, stage: 'execution', sideEffectsPossible: true });
}
