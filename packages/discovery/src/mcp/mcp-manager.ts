import type { AnyToolDefinition, ServerToolConfig, ToolConfigMeta, ToolError } from '@aibuddy/registry';
import { ToolError as ToolErrorClass } from '@aibuddy/registry';
import type { CatalogTool, DeferredToolCatalog } from '../catalog.js';
import { decideDeferral } from '../gate.js';
import type { DeferralDecision, GateOptions } from '../gate.js';
import { DEFAULT_STARTUP_TIMEOUT_MS } from './config.js';
import type { McpConfig } from './config.js';
import { McpServerConnection } from './mcp-connection.js';
import { cutForModel } from '../cut-for-model.js';
import type { McpExcludedTool } from './mcp-connection.js';
import type { McpConnectionSettings, McpReconnectOptions, McpServerEvent, McpServerStatus } from './mcp-connection-types.js';
import { createMcpToolDefinition } from './mcp-tool.js';
import type { McpCallResult, McpToolInfo } from './mcp-tool.js';
import { defaultStartConcurrency, StartSlots } from './start-slots.js';
import { uniqueToolName } from './tool-names.js';

/** Options of `connectMcpServers`. Every time constant is injectable so tests stay fast. */
export interface ConnectMcpServersOptions {
  /** Start-up timeout for servers whose entry sets none (default 30 s). */
  startupTimeoutMs?: number;
  /** Timeout of one tool call; progress notifications reset it (default 5 min). */
  callTimeoutMs?: number;
  /** Backoff after a server dies mid-run (defaults: 500 ms doubling to 30 s, 8 attempts), or `false`. */
  reconnect?: McpReconnectOptions | false;
  /** Grace period for a stdio server to exit on shutdown before SIGTERM (default 1 s). */
  shutdownGraceMs?: number;
  /** The client identity sent in `initialize`. */
  clientInfo?: { name: string; version: string };
  /**
   * How many stdio servers may be starting at the same time (default: twice the cores, at least 4).
   * The others wait their turn, and a server's start-up timeout counts from its own start. HTTP
   * servers do not wait: they start no process here.
   */
  maxConcurrentStarts?: number;
  /**
   * How long `connectMcpServers` waits for the servers to come up before it returns (default: until
   * every server is ready or failed). Servers still starting then go on in the background and join the
   * catalogue when they are ready (`version` increases, as after `tools/list_changed`); `starting()`
   * names them and `whenStarted()` waits for them. For hosts with many servers: the first step need
   * not wait for the slowest one.
   */
  waitForServersMs?: number;
  /** Thresholds of the gate (defaults: the design's 10 / 30). */
  gate?: GateOptions;
  /**
   * Where a deferred server's usage notes (`instructions`) go (default `instructions`: in the run
   * notes, like every server's). With `tool-search` they leave the run notes while the server is
   * deferred and `serverNotes` gives them to `tool_search`, which shows them beside that server's
   * tools: 200 servers with notes then cost nothing per step instead of up to 400,000 characters.
   * Pick it with `@aibuddy/defer`'s `deferredServerNotes(path)`: only where our own `tool_search`
   * answers the model in text (the `activeTools` path).
   */
  deferredServerNotes?: DeferredServerNotesPlacement;
  /** Receives server events (ready, failed, disconnected, reconnect scheduled, tools changed, warnings). */
  onEvent?: (event: McpServerEvent) => void;
  /** Receives stderr chunks of stdio servers. */
  onStderr?: (server: string, chunk: string) => void;
}

/** Where a deferred MCP server's usage notes go: the run notes, or `tool_search` results. */
export type DeferredServerNotesPlacement = 'instructions' | 'tool-search';

/** What the host shows about one server. */
export interface McpServerState {
  /** The server's name. */
  name: string;
  /** `stdio` or `http`. */
  transport: 'stdio' | 'http';
  /** Current state. */
  status: McpServerStatus;
  /** How many tools it offers (after allow / deny lists; last known while reconnecting). */
  toolCount: number;
  /** Whether `alwaysLoad` is set. */
  alwaysLoad: boolean;
  /** Why it is failed, when it is (stage `discovery` for start-up failures). */
  error?: ToolError;
  /** The pid of a running stdio server, which is also its process group id. */
  pid?: number;
}

/** The MCP side of a host: connected servers, their tools, the gate's decision, and calls. */
export interface McpManager extends DeferredToolCatalog {
  /** Tolerated oddities of the config (unknown keys). */
  readonly warnings: readonly string[];
  /** Every configured server with its state, in config order. */
  servers(): McpServerState[];
  /**
   * Servers still in their first start (not ready or failed yet), in config order: their tools are not
   * in the catalogue yet. Empty unless `waitForServersMs` let `connectMcpServers` return early.
   */
  starting(): string[];
  /**
   * A deferred server's usage notes, cut as in the run notes, when created with
   * `deferredServerNotes: 'tool-search'` (its config's `instructions` then leave them out);
   * `undefined` for a direct server, one without notes, or with the default placement.
   */
  serverNotes(server: string): string | undefined;
  /** Resolves when no server is in its first start any more (each is ready, failed or closed). */
  whenStarted(): Promise<void>;
  /** Servers that failed (to start, or for good after a crash), each with its error. */
  failures(): { server: string; error: ToolError }[];
  /** Every known MCP tool of servers that are ready or reconnecting. */
  tools(): McpToolInfo[];
  /** Tools servers list that are left out (input schema past the depth or size limit), with the reason. */
  excludedTools(): (McpExcludedTool & { server: string })[];
  /** The gate's decision over `tools()` (one function that `defer` and the host both read). */
  decision(): DeferralDecision;
  /** Whether a tool (namespaced name) can be called now: its server is connected. O(1). */
  isAvailable(name: string): boolean;
  /**
   * Whether `name` is one of this manager's MCP tools whose server is not connected now (the only
   * tools that come and go during a run). False for every other name, MCP or not. O(1).
   */
  isUnavailable(name: string): boolean;
  /** `ToolDefinition`s of every available MCP tool (direct and deferred), for `createAiTools`. */
  definitions(): AnyToolDefinition[];
  /** One `ServerToolConfig` per server (key `mcp:<server>`, not core); failed servers yield nothing with the reason. */
  toolConfigs(): ServerToolConfig[];
  /** Display metadata for `toolConfigs()`, to merge into `TOOL_CONFIG_METAS` for `assertConsistent`. */
  configMetas(): Record<string, ToolConfigMeta>;
  /** Tool name → config key for `toolConfigs()`, to merge into `TOOL_NAME_MAP` for `assertConsistent`. */
  nameMap(): Record<string, string>;
  /**
   * Calls a tool by its namespaced name (the original name goes to the server) and returns its raw
   * result. The definitions of `toolConfigs()` check the input against the tool's input schema and
   * the result against its output schema; this call checks neither.
   */
  callTool(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<McpCallResult>;
  /** Listens to server events; returns an unsubscribe function. */
  subscribe(listener: (event: McpServerEvent) => void): () => void;
  /** Increases whenever the catalog or a server's availability changes. */
  readonly version: number;
  /** Stops every server and reconnection. */
  close(): Promise<void>;
}

/** The longest delay setTimeout takes (2^31 − 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Server instructions longer than this are cut in the run instructions. */
const MAX_SERVER_INSTRUCTIONS = 2_000;

/** The config key of an MCP server's tool group. */
export function mcpConfigKey(server: string): string {
  return `mcp:${server}`;
}

/**
 * Connects every enabled server of a validated config in parallel, each under its start-up
 * timeout. A server that fails is reported (`failures()`, stage `discovery`, with its stderr
 * tail) and the others go on. Never rejects because of a server.
 */
export async function connectMcpServers(config: McpConfig, options: ConnectMcpServersOptions = {}): Promise<McpManager> {
  const listeners = new Set<(event: McpServerEvent) => void>();
  let version = 0;
  const emit = (event: McpServerEvent) => {
    if (event.type !== 'warning') version++;
    options.onEvent?.(event);
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // A failing listener must not break the connection.
      }
    }
  };
  const reconnect =
    options.reconnect === false
      ? false
      : {
          initialDelayMs: options.reconnect?.initialDelayMs ?? 500,
          maxDelayMs: options.reconnect?.maxDelayMs ?? 30_000,
          maxAttempts: options.reconnect?.maxAttempts ?? 8,
        };
  const startSlots = new StartSlots(options.maxConcurrentStarts ?? defaultStartConcurrency());
  const settings: McpConnectionSettings = {
    startSlots,
    startupTimeoutMs: options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS,
    callTimeoutMs: options.callTimeoutMs ?? 300_000,
    reconnect,
    shutdownGraceMs: options.shutdownGraceMs ?? 1_000,
    clientInfo: options.clientInfo ?? { name: 'aibuddy', version: '0.1.0' },
    onEvent: emit,
    ...(options.onStderr ? { onStderr: options.onStderr } : {}),
  };
  const waitMs = options.waitForServersMs ?? Number.POSITIVE_INFINITY;
  if (!(waitMs >= 0)) {
    throw new ToolErrorClass(`waitForServersMs must be a number of milliseconds ≥ 0 (or Infinity), not ${waitMs}.`, {
      stage: 'discovery',
      hint: 'Pass how long connectMcpServers may wait for servers to come up, or leave it out to wait for all.',
    });
  }
  const connections = Object.entries(config.servers).map(([name, entry]) => new McpServerConnection(name, entry, settings));
  const started = Promise.all(connections.map((c) => c.start())).then(() => undefined);
  await settledWithin(started, waitMs);

  const byServer = new Map(connections.map((c) => [c.name, c]));
  const startingNames = () => connections.filter((c) => c.status === 'starting').map((c) => c.name);
  const counted = () => connections.filter((c) => c.everReady && (c.status === 'ready' || c.status === 'reconnecting'));

  let cacheVersion = -1;
  let cache: {
    tools: McpToolInfo[];
    byServer: Map<string, McpToolInfo[]>;
    byName: Map<string, McpToolInfo>;
    decision: DeferralDecision;
    deferredServers: Set<string>;
    deferred: CatalogTool[];
    definitions: Map<string, AnyToolDefinition>;
  };
  // Rebuilt once per catalogue change (a server's list changed, a server came or went), never per
  // step; definitions of unchanged tools are reused.
  const current = () => {
    if (cacheVersion === version) return cache;
    const servers = counted();
    // Two servers can produce the same namespaced name (server "a" with tool "b__c", server "a__b"
    // with tool "c"): every tool of such a clash gets the hashed form of its own (server, tool) pair,
    // which is the same whatever the config order, instead of refusing to start.
    const seen = new Map<string, number>();
    for (const c of servers) for (const t of c.tools) seen.set(t.name, (seen.get(t.name) ?? 0) + 1);
    const perServer = new Map<string, McpToolInfo[]>();
    for (const c of servers) {
      perServer.set(
        c.name,
        c.tools.map((t) => ((seen.get(t.name) ?? 0) > 1 ? { ...t, name: uniqueToolName(t.server, t.originalName, t.name) } : t)),
      );
    }
    const tools = [...perServer.values()].flat();
    const byName = new Map(tools.map((t) => [t.name, t]));
    const decision = decideDeferral(
      servers.map((c) => ({
        server: c.name,
        toolNames: perServer.get(c.name)!.map((t) => t.name),
        alwaysLoad: c.config.alwaysLoad ?? false,
      })),
      options.gate,
    );
    const starting = startingNames();
    if (starting.length > 0) decision.starting = starting;
    const deferredServers = new Set(decision.servers.filter((d) => d.deferred).map((d) => d.server));
    const available = (name: string) => byServer.get(byName.get(name)?.server ?? '')?.status === 'ready';
    const deferred = decision.deferred
      .filter((d) => available(d.name))
      .map((d) => {
        const info = byName.get(d.name)!;
        return { name: info.name, description: info.description, inputSchema: info.inputSchema, server: info.server };
      });
    const definitions = new Map<string, AnyToolDefinition>();
    for (const [name, info] of byName) {
      const previous = cache?.definitions.get(name);
      definitions.set(
        name,
        previous && cache.byName.get(name) === info
          ? previous
          : createMcpToolDefinition(info, (i, a, o) => callTool(i.name, a, o)),
      );
    }
    cache = { tools, byServer: perServer, byName, decision, deferredServers, deferred, definitions };
    cacheVersion = version;
    return cache;
  };

  // A server's notes, cut for the model; with the `tool-search` placement, a deferred server's go to
  // tool_search (serverNotes) and a direct one's to the run notes, following the gate as it changes.
  const notesPlacement = options.deferredServerNotes ?? 'instructions';
  const notesOf = (connection: McpServerConnection) =>
    connection.instructions ? cutForModel(connection.instructions, MAX_SERVER_INSTRUCTIONS) : undefined;
  const notesWithSearch = (server: string) => notesPlacement === 'tool-search' && current().deferredServers.has(server);

  const isAvailable = (name: string) => {
    const info = current().byName.get(name);
    return info !== undefined && byServer.get(info.server)?.status === 'ready';
  };

  const isUnavailable = (name: string) => {
    const info = current().byName.get(name);
    return info !== undefined && byServer.get(info.server)?.status !== 'ready';
  };

  const callTool = async (name: string, args: Record<string, unknown>, callOptions: { signal?: AbortSignal } = {}) => {
    const info = current().byName.get(name);
    const connection = info ? byServer.get(info.server) : undefined;
    if (!info || !connection) {
      // Its server has not listed its tools yet: say so rather than "unknown" (the name may be right).
      const pending = connections.find((c) => c.status === 'starting' && name.startsWith(`${c.name}__`));
      if (pending) {
        throw new ToolErrorClass(`the MCP server "${pending.name}" is still starting; its tools are not known yet.`, {
          stage: 'discovery',
          toolName: name,
          retryable: true,
          hint: 'Try again in a moment, or use tool_search once the server is up.',
        });
      }
      throw new ToolErrorClass(`no MCP tool named "${name}" is known.`, {
        stage: 'discovery',
        toolName: name,
        hint: 'Use tool_search to find the right tool name.',
      });
    }
    return connection.callTool(info, args, callOptions);
  };

  const manager: McpManager = {
    warnings: config.warnings,
    get version() {
      return version;
    },
    servers: () =>
      connections.map((c) => ({
        name: c.name,
        transport: c.config.type,
        status: c.status,
        toolCount: c.tools.length,
        alwaysLoad: c.config.alwaysLoad ?? false,
        ...(c.error ? { error: c.error } : {}),
        ...(c.pid ? { pid: c.pid } : {}),
      })),
    starting: startingNames,
    serverNotes(server) {
      const connection = byServer.get(server);
      return connection && notesWithSearch(server) ? notesOf(connection) : undefined;
    },
    whenStarted: () => started,
    failures: () => connections.filter((c) => c.status === 'failed' && c.error).map((c) => ({ server: c.name, error: c.error! })),
    tools: () => current().tools,
    excludedTools: () => connections.flatMap((c) => c.excludedTools.map((t) => ({ ...t, server: c.name }))),
    decision: () => current().decision,
    deferredTools: () => current().deferred,
    isAvailable,
    isUnavailable,
    definitions: () => [...current().definitions.entries()].filter(([name]) => isAvailable(name)).map(([, d]) => d),
    toolConfigs: () => connections.filter((c) => c.status !== 'disabled').map((c) => serverConfig(c)),
    configMetas: () =>
      Object.fromEntries(
        connections
          .filter((c) => c.status !== 'disabled')
          .map((c) => [
            mcpConfigKey(c.name),
            { title: `MCP: ${c.name}`, description: `Tools of the MCP server "${c.name}".`, category: 'integration' as const },
          ]),
      ),
    nameMap: () => Object.fromEntries(current().tools.map((t) => [t.name, mcpConfigKey(t.server)])),
    callTool,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      await Promise.all(connections.map((c) => c.close()));
      listeners.clear();
    },
  };

  function serverConfig(connection: McpServerConnection): ServerToolConfig {
    return {
      key: mcpConfigKey(connection.name),
      get toolNames() {
        return (current().byServer.get(connection.name) ?? connection.tools).map((t) => t.name);
      },
      core: false,
      requires: {
        preconditions: [
          {
            name: `mcp-server:${connection.name}`,
            check: () =>
              connection.status === 'ready'
                ? true
                : connection.error
                  ? connection.error.message
                  : `MCP server "${connection.name}" is ${connection.status}`,
          },
        ],
      },
      create: () =>
        (current().byServer.get(connection.name) ?? [])
          .map((t) => current().definitions.get(t.name))
          .filter((d): d is AnyToolDefinition => d !== undefined),
      instructions: () => {
        const notes = notesWithSearch(connection.name) ? undefined : notesOf(connection);
        return notes ? `MCP server "${connection.name}" (tools named ${connection.name}__*): ${notes}` : undefined;
      },
    };
  }

  return manager;
}

/** Resolves when `promise` settles or after `ms`, whichever is first (no timer left behind). */
async function settledWithin(promise: Promise<void>, ms: number): Promise<void> {
  // Past setTimeout's range (about 24.8 days) Node would fire at once: that is "wait for all".
  if (ms > MAX_TIMER_MS) return promise;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
