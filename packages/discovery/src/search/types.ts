/** One tool as the index sees it. Only these fields are read; the schema is reduced to its property text. */
export interface ToolIndexEntry {
  /** The tool name the model calls (unique within the index). */
  name: string;
  /** What the tool does. */
  description?: string | undefined;
  /** The tool's JSON Schema; only property names, descriptions and titles are kept, for matching. */
  inputSchema?: unknown;
  /** The MCP server (or toolkit) the tool belongs to; its name is matched against the query too. */
  server?: string | undefined;
}

/** Options of {@link ToolIndex.search}. */
export interface ToolSearchOptions {
  /** Maximum number of hits (default 5; values below 1 return nothing; capped at the catalog size). */
  limit?: number | undefined;
  /**
   * Treat the query as a regular expression (JavaScript syntax; a leading `(?i)` makes it case-insensitive,
   * as in Anthropic's regex tool search). It is tested against each tool's name, description, server and
   * parameter names/descriptions; hits are ranked by where it matched (name first). An invalid or
   * over-long pattern throws {@link ToolSearchQueryError}.
   */
  regex?: boolean | undefined;
}

/** One search result. */
export interface ToolSearchHit {
  /** The tool name, exactly as indexed. */
  name: string;
  /** Relevance score (higher is better; only comparable within one result list). Always > 0. */
  score: number;
}

/** A searchable, immutable catalog of tools. Create one with `createToolIndex`. */
export interface ToolIndex {
  /**
   * Best matches for `query`, best first. A plain-text query is ranked by relevance and never throws
   * (an empty or unmatched query returns `[]`); `{ regex: true }` switches to pattern matching.
   */
  search(query: string, options?: ToolSearchOptions): ToolSearchHit[];
  /** Number of tools in the index. */
  readonly size: number;
}
