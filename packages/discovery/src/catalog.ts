import type { JsonSchema } from '@aibuddy/registry';

/** A tool as `tool_search` returns it: everything the model needs to call it. */
export interface CatalogTool {
  /** The name the model sees and calls. */
  name: string;
  /** What the tool does. */
  description: string;
  /** Its full input JSON Schema. */
  inputSchema: JsonSchema;
  /** The MCP server (or other source) it comes from, when there is one. */
  server?: string;
}

/** Where `tool_search` finds deferred tools. `connectMcpServers` returns one. */
export interface DeferredToolCatalog {
  /**
   * The deferred tools that can be called right now, with full schemas. Return the same array
   * object while nothing changed: `tool_search` caches its index by array identity.
   */
  deferredTools(): readonly CatalogTool[];
  /**
   * Sources (MCP servers) still starting, whose tools are not listed yet: `tool_search` tells the model
   * they are coming instead of letting it conclude they do not exist. An `McpManager` reports them.
   */
  starting?(): readonly string[];
}

/** A catalog over a fixed list (deferred tools that do not come from MCP, tests). */
export function staticCatalog(tools: readonly CatalogTool[]): DeferredToolCatalog {
  const list = [...tools];
  return { deferredTools: () => list };
}

/** One catalog over several (MCP plus host-provided deferred tools). Later names never shadow earlier ones. */
export function combineCatalogs(...catalogs: readonly DeferredToolCatalog[]): DeferredToolCatalog {
  let parts: (readonly CatalogTool[])[] = [];
  let combined: CatalogTool[] = [];
  return {
    deferredTools() {
      const next = catalogs.map((c) => c.deferredTools());
      if (next.length !== parts.length || next.some((p, i) => p !== parts[i])) {
        parts = next;
        const seen = new Set<string>();
        combined = [];
        for (const tool of next.flat()) {
          if (seen.has(tool.name)) continue;
          seen.add(tool.name);
          combined.push(tool);
        }
      }
      return combined;
    },
    starting: () => [...new Set(catalogs.flatMap((c) => c.starting?.() ?? []))],
  };
}
