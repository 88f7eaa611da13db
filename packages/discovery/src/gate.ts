/** A server with more than this many tools has its tools deferred (fixed by the design). */
export const MCP_SERVER_DEFER_THRESHOLD = 10;
/** More than this many MCP tools in total defers every MCP tool (fixed by the design). */
export const MCP_TOTAL_DEFER_THRESHOLD = 30;

/** What the gate needs to know about one MCP server. */
export interface GateServerInput {
  /** The server's name (as in the `mcpServers` config). */
  server: string;
  /** The namespaced names of its tools (after allow / deny lists). */
  toolNames: readonly string[];
  /** Never defer this server's tools. */
  alwaysLoad?: boolean;
}

/** The gate's decision for one server. */
export interface ServerDeferral {
  /** The server's name. */
  server: string;
  /** How many tools it offers. */
  toolCount: number;
  /** Whether its tools are deferred (found through `tool_search`). */
  deferred: boolean;
  /** Why, in a sentence for `aibuddy tools` and logs. */
  reason: string;
}

/** The gate's decision for a run: one function that `defer` and the host both read. */
export interface DeferralDecision {
  /** Total MCP tools counted. */
  totalTools: number;
  /** Whether the total threshold deferred every MCP tool. */
  allDeferred: boolean;
  /** Per server, in input order. */
  servers: ServerDeferral[];
  /** Tool names that go straight into the tool set. */
  direct: string[];
  /** Tool names found only through `tool_search`, with their server and reason. */
  deferred: { name: string; server: string; reason: string }[];
  /**
   * Servers still in their first start, not counted yet (an `McpManager` that returned before every
   * server was up): their tools join the decision when they are ready. Absent when none.
   */
  starting?: string[];
}

/** Thresholds of the gate (the defaults are the design's fixed numbers). */
export interface GateOptions {
  /** Per-server threshold (default 10). */
  perServer?: number;
  /** Total threshold (default 30). */
  total?: number;
}

/**
 * Decides which MCP tools are deferred. A server with more than 10 tools is deferred; more than
 * 30 MCP tools in all defers every MCP tool; `alwaysLoad` servers are never deferred. The
 * thresholds count tools, not context size. Built-in core tools never pass through here.
 */
export function decideDeferral(servers: readonly GateServerInput[], options: GateOptions = {}): DeferralDecision {
  const perServer = options.perServer ?? MCP_SERVER_DEFER_THRESHOLD;
  const total = options.total ?? MCP_TOTAL_DEFER_THRESHOLD;
  const totalTools = servers.reduce((sum, s) => sum + s.toolNames.length, 0);
  const allDeferred = totalTools > total;
  const decision: DeferralDecision = { totalTools, allDeferred, servers: [], direct: [], deferred: [] };
  for (const s of servers) {
    const count = s.toolNames.length;
    let deferred: boolean;
    let reason: string;
    if (s.alwaysLoad) {
      deferred = false;
      reason = `alwaysLoad is set for "${s.server}"`;
    } else if (allDeferred) {
      deferred = true;
      reason = `${totalTools} MCP tools in total, more than ${total}: every MCP tool is deferred`;
    } else if (count > perServer) {
      deferred = true;
      reason = `"${s.server}" has ${count} tools, more than ${perServer}`;
    } else {
      deferred = false;
      reason = `"${s.server}" has ${count} tools (at most ${perServer}) and ${totalTools} MCP tools in total (at most ${total})`;
    }
    decision.servers.push({ server: s.server, toolCount: count, deferred, reason });
    for (const name of s.toolNames) {
      if (deferred) decision.deferred.push({ name, server: s.server, reason });
      else decision.direct.push(name);
    }
  }
  return decision;
}
