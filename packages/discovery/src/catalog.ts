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
  /**
   * A deferred source's usage notes that the run notes leave out: `tool_search` shows them beside
   * that source's tools, so they cost tokens only once the model looks for those tools. An
   * `McpManager` created with `deferredServerNotes: 'tool-search'` gives them for its deferred servers.
   */
  serverNotes?(server: string): string | undefined;
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
    serverNotes(server) {
      for (const c of catalogs) {
        const notes = c.serverNotes?.(server);
        if (notes !== undefined) return notes;
      }
      return undefined;
    },
  };
}
