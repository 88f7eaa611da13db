import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolError } from '@aibuddy/registry';
import { z } from 'zod';
import { McpServerStartError } from '../errors.js';
import type { McpServerConfig } from './config.js';
import { ProcessGroupStdioTransport } from './process-group-transport.js';
import type { McpCallResult, McpToolInfo } from './mcp-tool.js';
import { StderrTail } from './stderr-tail.js';
import { readToolList } from './read-tool-list.js';
import type { McpExcludedTool } from './read-tool-list.js';

export type { McpExcludedTool } from './read-tool-list.js';

/** The state of one MCP server. */
export type McpServerStatus = 'starting' | 'ready' | 'reconnecting' | 'failed' | 'closed' | 'disabled';

/** Something that happened to an MCP server (for logs, UIs and tests). */
export type McpServerEvent =
  | { type: 'server-ready'; server: string; toolCount: number; reconnected: boolean }
  | { type: 'server-failed'; server: string; error: ToolError }
  | { type: 'server-disconnected'; server: string; reason: string; stderrTail: string }
  | { type: 'server-reconnect-scheduled'; server: string; attempt: number; delayMs: number }
  | { type: 'tools-changed'; server: string; toolCount: number }
  | { type: 'warning'; server: string; message: string };

/** Reconnection after a server dies mid-run: exponential backoff. */
export interface McpReconnectOptions {
  /** Delay before the first attempt (default 500 ms). */
  initialDelayMs?: number;
  /** Upper bound of the delay (default 30 s). */
  maxDelayMs?: number;
  /** Attempts before the server is given up as failed (default 8). */
  maxAttempts?: number;
}

/** Timing and identity of a connection. Every time constant is injectable so tests stay fast. */
export interface McpConnectionSettings {
  /** Start-up timeout (handshake plus the first `tools/list`), unless the server entry sets one. */
  startupTimeoutMs: number;
  /** How long one `tools/call` may take; progress notifications reset it. */
  callTimeoutMs: number;
  /** Backoff after a crash, or `false` to never reconnect. */
  reconnect: Required<McpReconnectOptions> | false;
  /** On shutdown, how long a stdio server may take to exit after stdin closes before SIGTERM. */
  shutdownGraceMs: number;
  /** The client identity sent in `initialize`. */
  clientInfo: { name: string; version: string };
  /** Receives server events. */
  onEvent?: (event: McpServerEvent) => void;
  /** Receives each stderr chunk of stdio servers (they are captured for reports either way). */
  onStderr?: (server: string, chunk: string) => void;
}

// The SDK's own schema rejects the whole page when one tool is malformed; we keep the good ones.
const LaxListToolsResult = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
const MAX_PAGES = 1_000;

class StartTimeout extends Error {}

/** The real cause when our transport ended the connection (a message over the size limit). */
function transportFailure(transport: Transport | undefined): Error | undefined {
  return transport instanceof ProcessGroupStdioTransport ? transport.failure : undefined;
}

function isTransportFailure(error: unknown): boolean {
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

/**
 * One MCP server: starts it under a timeout, lists its tools (all pages), follows
 * `notifications/tools/list_changed`, calls tools by their original names, and reconnects with
 * backoff when the server dies mid-run. Used through `connectMcpServers`.
 */
export class McpServerConnection {
  /** Current state. */
  status: McpServerStatus = 'starting';
  /** The server's tools after allow / deny lists (the last known list while reconnecting). */
  tools: McpToolInfo[] = [];
  /** Why the server is failed, when it is. */
  error: ToolError | undefined;
  /** Whether the server ever listed its tools (counted by the gate even while reconnecting). */
  everReady = false;
  /** Tools the server lists that are left out (an input schema past the limits), with the reason. */
  excludedTools: McpExcludedTool[] = [];
  /** The server's own usage notes (`instructions` of its `initialize` result), when it gave any. */
  instructions: string | undefined;

  private client: Client | undefined;
  private transport: Transport | undefined;
  private generation = 0;
  private attempts = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private readonly stderr = new StderrTail();

  constructor(
    /** The server's name in the config. */
    readonly name: string,
    /** Its validated entry. */
    readonly config: McpServerConfig,
    private readonly settings: McpConnectionSettings,
  ) {
    if (config.disabled) this.status = 'disabled';
  }

  /** The pid (and process group id) of the running stdio server, if there is one. */
  get pid(): number | undefined {
    return this.transport instanceof ProcessGroupStdioTransport ? (this.transport.pid ?? undefined) : undefined;
  }

  /** The last lines the server wrote to stderr. */
  stderrTail(): string {
    return this.stderr.tail();
  }

  /** Starts the server; never throws (a failure sets `status` to `failed` and `error`). */
  async start(): Promise<void> {
    if (this.status === 'disabled' || this.status === 'closed') return;
    this.status = 'starting';
    try {
      await this.connectOnce();
      this.status = 'ready';
      this.settings.onEvent?.({ type: 'server-ready', server: this.name, toolCount: this.tools.length, reconnected: false });
    } catch (error) {
      if ((this.status as McpServerStatus) === 'closed') return;
      this.status = 'failed';
      this.error = error as ToolError;
      this.settings.onEvent?.({ type: 'server-failed', server: this.name, error: this.error });
    }
  }

  private timeoutMs(): number {
    return this.config.startupTimeoutMs ?? this.settings.startupTimeoutMs;
  }

  private createTransport(): Transport {
    if (this.config.type === 'http') {
      return new StreamableHTTPClientTransport(new URL(this.config.url), {
        requestInit: { headers: this.config.headers },
        // Reconnection is ours (with backoff and a catalog update), not the transport's.
        reconnectionOptions: {
          maxReconnectionDelay: 1_000,
          initialReconnectionDelay: 1_000,
          reconnectionDelayGrowFactor: 1,
          maxRetries: 0,
        },
      });
    }
    // Its own process group, so that close ends a wrapper's children too (npx, uvx, shell scripts).
    const transport = new ProcessGroupStdioTransport({
      command: this.config.command,
      args: this.config.args,
      env: this.config.env,
      graceMs: this.settings.shutdownGraceMs,
      ...(this.config.cwd ? { cwd: this.config.cwd } : {}),
    });
    transport.stderr.on('data', (chunk: Buffer) => {
      this.stderr.push(chunk);
      this.settings.onStderr?.(this.name, chunk.toString());
    });
    return transport;
  }

  private async connectOnce(): Promise<void> {
    const generation = ++this.generation;
    this.stderr.clear();
    const timeoutMs = this.timeoutMs();
    const transport = this.createTransport();
    const client = new Client(this.settings.clientInfo, { capabilities: {} });
    client.onerror = () => {
      // Transport noise (a bad line on stdout, a dropped SSE stream) is not fatal by itself;
      // a real loss of the server shows up as onclose or a failed request.
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (generation === this.generation && this.status === 'ready') void this.refreshTools();
    });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StartTimeout()), timeoutMs);
    });
    let tools: McpToolInfo[];
    try {
      tools = await Promise.race([
        (async () => {
          await client.connect(transport, { timeout: timeoutMs });
          return this.listAll(client, timeoutMs);
        })(),
        deadline,
      ]);
    } catch (error) {
      await this.dispose(client, transport, true);
      throw this.startError(transportFailure(transport) ?? error, timeoutMs);
    } finally {
      clearTimeout(timer);
    }
    if (generation !== this.generation) {
      // Closed while starting.
      await this.dispose(client, transport, true);
      throw new McpServerStartError(this.name, 'the connection was closed while starting.', {});
    }
    client.onclose = () => {
      if (generation === this.generation)
        this.handleDisconnect('the server closed the connection (the process exited or the stream ended)');
    };
    this.client = client;
    this.transport = transport;
    this.tools = tools;
    this.instructions = client.getInstructions()?.trim() || undefined;
    this.everReady = true;
  }

  private startError(error: unknown, timeoutMs: number): McpServerStartError {
    const stderrTail = this.stderr.tail();
    if (error instanceof StartTimeout) {
      return new McpServerStartError(this.name, `no answer within ${timeoutMs} ms (start-up timeout).`, {
        stderrTail,
        timedOut: true,
        hint: 'Check that the command starts an MCP server on stdio (or the URL is an MCP endpoint), or raise "startupTimeoutMs" for slow servers.',
      });
    }
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown }).code;
    const hint =
      code === 'ENOENT'
        ? `The command "${this.config.type === 'stdio' ? this.config.command : ''}" was not found; install it or use a full path.`
        : this.config.type === 'http'
          ? 'Check that the server is running and the URL points to its MCP endpoint.'
          : 'See the stderr lines above; fix the server or its arguments.';
    return new McpServerStartError(this.name, message, { stderrTail, cause: error, hint });
  }

  private async listAll(client: Client, timeoutMs: number): Promise<McpToolInfo[]> {
    const raw: unknown[] = [];
    const seenCursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        LaxListToolsResult,
        { timeout: timeoutMs },
      );
      raw.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined || cursor === '') break;
      if (seenCursors.has(cursor)) {
        this.warn(`tools/list returned the cursor "${cursor}" twice; stopped paging.`);
        break;
      }
      seenCursors.add(cursor);
    }
    return this.toInfos(raw);
  }

  private warn(message: string): void {
    this.settings.onEvent?.({ type: 'warning', server: this.name, message });
  }

  private toInfos(raw: unknown[]): McpToolInfo[] {
    const { tools, excluded } = readToolList(raw, this.name, this.config, (message) => this.warn(message));
    this.excludedTools = excluded;
    return tools;
  }

  /** Re-reads the tool list (after `notifications/tools/list_changed`). */
  async refreshTools(): Promise<void> {
    const client = this.client;
    if (!client || this.status !== 'ready') return;
    const generation = this.generation;
    try {
      const tools = await this.listAll(client, this.timeoutMs());
      if (generation !== this.generation) return;
      this.tools = tools;
      this.settings.onEvent?.({ type: 'tools-changed', server: this.name, toolCount: tools.length });
    } catch (error) {
      this.warn(`re-listing tools after list_changed failed: ${(error as Error).message}`);
    }
  }

  private handleDisconnect(reason: string): void {
    if (this.status === 'closed' || this.status === 'reconnecting') return;
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    this.generation++;
    // The state changes before anyone hears of it, so listeners never read a stale "ready".
    if (this.settings.reconnect === false) {
      this.status = 'failed';
      this.error = new ToolError(`MCP server "${this.name}" disconnected: ${reason}.`, { stage: 'execution', retryable: false });
    } else {
      this.status = 'reconnecting';
      this.attempts = 0;
    }
    this.settings.onEvent?.({ type: 'server-disconnected', server: this.name, reason, stderrTail: this.stderr.tail() });
    if (client && transport) void this.dispose(client, transport, true);
    if (this.status === 'reconnecting') this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const policy = this.settings.reconnect;
    if (policy === false || this.status !== 'reconnecting') return;
    this.attempts++;
    if (this.attempts > policy.maxAttempts) {
      this.status = 'failed';
      this.error = new McpServerStartError(this.name, `gave up reconnecting after ${policy.maxAttempts} attempts.`, {
        stderrTail: this.stderr.tail(),
      });
      this.settings.onEvent?.({ type: 'server-failed', server: this.name, error: this.error });
      return;
    }
    const delayMs = Math.min(policy.initialDelayMs * 2 ** (this.attempts - 1), policy.maxDelayMs);
    this.settings.onEvent?.({ type: 'server-reconnect-scheduled', server: this.name, attempt: this.attempts, delayMs });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.status !== 'reconnecting') return;
      this.connectOnce().then(
        () => {
          if (this.status !== 'reconnecting') return;
          this.status = 'ready';
          this.attempts = 0;
          this.error = undefined;
          this.settings.onEvent?.({ type: 'server-ready', server: this.name, toolCount: this.tools.length, reconnected: true });
          this.settings.onEvent?.({ type: 'tools-changed', server: this.name, toolCount: this.tools.length });
        },
        () => this.scheduleReconnect(),
      );
    }, delayMs);
    this.reconnectTimer.unref?.();
  }

  /**
   * Calls a tool by its original name. Failures become `ToolError`s: a server that is not
   * connected → `discovery` (its tools are not available now); the connection lost during the
   * call, a timeout or a server error → `execution`; arguments the server rejects → `parameters`.
   */
  async callTool(
    info: McpToolInfo,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal } = {},
  ): Promise<McpCallResult> {
    const client = this.client;
    const transport = this.transport;
    if (!client || this.status !== 'ready') {
      throw new ToolError(`MCP server "${this.name}" is not connected (${this.status}); its tools are unavailable right now.`, {
        stage: 'discovery',
        toolName: info.name,
        retryable: this.status === 'reconnecting',
        hint: this.status === 'reconnecting' ? 'It is reconnecting; try again later or use another tool.' : 'Use another tool.',
      });
    }
    try {
      return (await client.callTool({ name: info.originalName, arguments: args }, undefined, {
        timeout: this.settings.callTimeoutMs,
        resetTimeoutOnProgress: true,
        ...(options.signal ? { signal: options.signal } : {}),
      })) as McpCallResult;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw this.callError(info, error, transport);
    }
  }

  private callError(info: McpToolInfo, error: unknown, transport?: Transport): ToolError {
    const failure = transportFailure(transport);
    const message = failure ? failure.message : error instanceof Error ? error.message : String(error);
    const base = { toolName: info.name, cause: error, details: { server: this.name, tool: info.originalName } };
    if (isTransportFailure(error)) {
      // HTTP has no process to watch: a failed request is how we learn that the server is gone.
      if (this.config.type === 'http') this.handleDisconnect(`a request failed (${message})`);
      const tail = this.stderr.tail();
      return new ToolError(
        `MCP server "${this.name}" disconnected during the call (${message}).${tail ? `\n--- stderr (last lines) ---\n${tail}` : ''}`,
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
        return new ToolError(`MCP server "${this.name}" did not answer within ${this.settings.callTimeoutMs} ms.`, {
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

  private async dispose(client: Client, transport: Transport, force: boolean): Promise<void> {
    // A failed or lost server is killed with its whole group at once; a normal close is graceful
    // (stdin ends, then SIGTERM and SIGKILL to the group, see ProcessGroupStdioTransport).
    if (force && transport instanceof ProcessGroupStdioTransport) transport.kill();
    try {
      await client.close();
    } catch {
      // Closing a dead connection can fail; the process group is handled by the transport.
    }
  }

  /** Stops the server (stdin closed, then SIGTERM after the grace period) and any reconnection. */
  async close(): Promise<void> {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const wasDisabled = this.status === 'disabled';
    this.status = wasDisabled ? 'disabled' : 'closed';
    this.generation++;
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    if (client && transport) await this.dispose(client, transport, false);
  }
}
