/**
 * One MCP server connection: start-up under a timeout, the tool list, `list_changed`, calls, and
 * reconnection with backoff. Failures are described in `mcp-failures.ts`, paging in
 * `list-all-tools.ts`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { ToolError } from '@aibuddy/registry';
import { McpServerStartError } from '../errors.js';
import type { McpServerConfig } from './config.js';
import { listAllTools } from './list-all-tools.js';
import { fetchWithMessageLimit } from './limited-fetch.js';
import type { McpConnectionSettings, McpServerStatus } from './mcp-connection-types.js';
import { callError, callFailureMessage, isTransportFailure, startError, StartTimeout, transportFailure } from './mcp-failures.js';
import { ProcessGroupStdioTransport } from './process-group-transport.js';
import type { McpCallResult, McpToolInfo } from './mcp-tool.js';
import { StderrTail } from './stderr-tail.js';
import { readToolList } from './read-tool-list.js';
import type { McpExcludedTool } from './read-tool-list.js';

export type { McpExcludedTool } from './read-tool-list.js';

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
  // The client and transport of a start under way, so that close() ends the process at once instead
  // of when the start finishes or times out (a slow server would outlive its host's close by up to 30 s).
  private inFlight: { client: Client; transport: Transport } | undefined;
  private generation = 0;
  /** The re-list running now, and whether a list_changed came in since it started. */
  private relisting: Promise<void> | undefined;
  private relistAgain = false;
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
        // As over stdio, a message over 10 MiB is refused instead of read into memory.
        fetch: fetchWithMessageLimit(),
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

  /**
   * One start: a stdio server waits for a start slot first (hundreds started together would each
   * run into the start-up timeout), and holds it until it has listed its tools. The timeout counts
   * from the slot, not from the wait.
   */
  private async connectOnce(): Promise<void> {
    const slots = this.config.type === 'http' ? undefined : this.settings.startSlots;
    const release = await slots?.acquire();
    try {
      if (this.status === 'closed') throw this.closedWhileStarting();
      await this.handshake();
    } finally {
      release?.();
    }
  }

  private async handshake(): Promise<void> {
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
    this.inFlight = { client, transport };
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
      if (this.inFlight?.transport === transport) this.inFlight = undefined;
    }
    if (generation !== this.generation) {
      // Closed while starting.
      await this.dispose(client, transport, true);
      throw this.closedWhileStarting();
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

  private closedWhileStarting(): McpServerStartError {
    return new McpServerStartError(this.name, 'the connection was closed while starting.', {});
  }

  private startError(error: unknown, timeoutMs: number): McpServerStartError {
    return startError(error, { server: this.name, config: this.config, timeoutMs, stderrTail: this.stderr.tail() });
  }

  private async listAll(client: Client, timeoutMs: number): Promise<McpToolInfo[]> {
    return this.toInfos(await listAllTools(client, timeoutMs, (message) => this.warn(message)));
  }

  private warn(message: string): void {
    this.settings.onEvent?.({ type: 'warning', server: this.name, message });
  }

  private toInfos(raw: unknown[]): McpToolInfo[] {
    const { tools, excluded } = readToolList(raw, this.name, this.config, (message) => this.warn(message));
    this.excludedTools = excluded;
    return tools;
  }

  /**
   * Re-reads the tool list (after `notifications/tools/list_changed`). Notifications that arrive
   * while a re-list runs are answered by one more re-list after it, however many they are: a server
   * that sends 300 at once costs two `tools/list` requests, not 300 concurrent ones (each a parse of
   * its whole list, and a catalogue change).
   */
  refreshTools(): Promise<void> {
    if (this.relisting) {
      this.relistAgain = true;
      return this.relisting;
    }
    this.relisting = (async () => {
      try {
        do {
          this.relistAgain = false;
          await this.relistOnce();
        } while (this.relistAgain);
      } finally {
        this.relisting = undefined;
      }
    })();
    return this.relisting;
  }

  private async relistOnce(): Promise<void> {
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
    // HTTP has no process to watch: a failed request is how we learn that the server is gone.
    if (isTransportFailure(error) && this.config.type === 'http')
      this.handleDisconnect(`a request failed (${callFailureMessage(error, transport)})`);
    return callError(error, {
      server: this.name,
      info,
      transport,
      stderrTail: this.stderr.tail(),
      callTimeoutMs: this.settings.callTimeoutMs,
    });
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
    const starting = this.inFlight;
    this.inFlight = undefined;
    // A start under way has served nothing yet: nothing to finish gracefully, so its group is killed.
    if (starting) await this.dispose(starting.client, starting.transport, true);
    if (client && transport) await this.dispose(client, transport, false);
  }
}
