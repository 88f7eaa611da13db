import type { DeferralDecision } from '../gate.js';
import type { McpManager } from '../mcp/mcp-manager.js';
import { TOOL_SEARCH_TOOL_NAME } from '../tool-search/constants.js';
import { createActiveSet } from './active-set.js';
import type { ActiveSet } from './active-set.js';

/** What {@link createRunActiveSet} builds a run's active set from. */
export interface RunActiveSetOptions {
  /** Built-in core tool names (always active); `tool_search` is added. */
  core: Iterable<string>;
  /** The gate's decision (direct and deferred MCP tools). */
  decision: Pick<DeferralDecision, 'direct' | 'deferred'>;
  /** The MCP side of the run, when there is one: its tools leave the set while their server is down. */
  mcp?: Pick<McpManager, 'isUnavailable'> | undefined;
}

/**
 * The active set of one run with the availability rule every host needs: only MCP tools can
 * become unavailable (their server died or is reconnecting); every other tool always is available.
 * The rule costs O(1) per name, so per-step work never depends on the catalogue size.
 */
export function createRunActiveSet(options: RunActiveSetOptions): ActiveSet {
  const mcp = options.mcp;
  return createActiveSet({
    core: [...options.core, TOOL_SEARCH_TOOL_NAME],
    direct: options.decision.direct,
    deferred: options.decision.deferred.map((d) => d.name),
    ...(mcp ? { isAvailable: (name: string) => !mcp.isUnavailable(name) } : {}),
  });
}
