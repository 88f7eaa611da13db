import type { EmbeddingModel } from 'ai';
import type { ToolIndexTuning } from './lexical-ranker.js';

/** One tool as the index sees it. Only these fields are read; the schema is reduced to its property text. */
export interface ToolIndexEntry {
  /** The tool name the model calls (unique within the index). */
  name: string;
  /** What the tool does. */
  description?: string | undefined;
  /** The tool's JSON Schema; only property names, descriptions and titles (for matching) and the top-level `required` names (for prerequisite tools) are kept. */
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

/** Something that made semantic search fall back to lexical ranking (or lose its cache); never thrown. */
export interface ToolSearchWarning {
  /**
   * `tool-embeddings`: the tool vectors could not be computed (the index stays lexical);
   * `query-embedding`: one query could not be embedded (that search is lexical);
   * `embedding-cache`: the cache folder could not be read or written (vectors are recomputed).
   */
  kind: 'tool-embeddings' | 'query-embedding' | 'embedding-cache';
  /** What happened and what the index does instead. */
  message: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/** Options of `createToolIndex`. */
export interface ToolIndexOptions {
  /**
   * An AI SDK embedding model (e.g. `openai.embedding('text-embedding-3-small')`). When given,
   * {@link ToolIndex.searchAsync} fuses cosine similarity with the lexical ranking (reciprocal rank fusion).
   * Requires the `ai` package (an optional peer dependency).
   */
  embeddingModel?: Exclude<EmbeddingModel, string> | undefined;
  /** Folder for cached tool vectors (the host's data folder); without it vectors live in memory only. */
  cacheDir?: string | undefined;
  /** Called when semantic search falls back to lexical or the cache fails. Default: `console.warn`. */
  onWarning?: ((warning: ToolSearchWarning) => void) | undefined;
  /** Time allowed to embed one query before that search falls back to lexical (default 10,000 ms). */
  queryTimeoutMs?: number | undefined;
  /** Lexical ranking parameters to override (experiments; the defaults are the supported setting). */
  tuning?: Partial<ToolIndexTuning> | undefined;
}

/** A searchable, immutable catalog of tools. Create one with `createToolIndex`. */
export interface ToolIndex {
  /**
   * Best matches for `query`, best first, by the lexical ranking (synchronous, never waits for a model).
   * A plain-text query never throws (an empty or unmatched query returns `[]`); `{ regex: true }`
   * switches to pattern matching.
   */
  search(query: string, options?: ToolSearchOptions): ToolSearchHit[];
  /**
   * Like {@link search}, fused with semantic similarity when an `embeddingModel` was given and the
   * tool vectors are ready (it waits for them). If the query cannot be embedded, the lexical result is
   * returned and `onWarning` is called. Without a model it equals `search`. Regex queries are never embedded.
   */
  searchAsync(query: string, options?: ToolSearchOptions): Promise<ToolSearchHit[]>;
  /**
   * Resolves when the tool vectors are computed or loaded from the cache: `true` when semantic search
   * is available, `false` without a model or when embedding failed (reported through `onWarning`). Never rejects.
   */
  ready(): Promise<boolean>;
  /**
   * Runs a few lexical searches made of its own tools' descriptions (`WARM_UP_SEARCHES`, results
   * discarded), so that the one-time cost of a fresh process — V8 compiling the ranking loops to
   * optimised code on background threads, which takes the first searches of a large catalogue — is
   * paid now (at start-up) instead of in the first model steps. At 10,000 tools it moved ~30 ms of
   * compilation out of the first searches. It also builds the tables a first search with a typo or
   * with a tool named as an identifier would build (about 20 ms each at 10,000 tools). Returns the
   * number of searches run (0 for an empty index). `tool_search` warms its first index; derived
   * indexes share the compiled code and inherit the typo table.
   */
  warmUp(): number;
  /**
   * A new index in which the tools of `server` are `entries` (none: the server is gone); this index
   * is left as it was. For `tools/list_changed`: every other tool keeps the term ids it was indexed
   * with, so only the server's tools are read (at 10,000 tools a fraction of a full build), and with
   * an embedding model only new tool texts are embedded. The server's tools move to the end of the
   * catalogue order (which only breaks exact score ties). Once more than half of the tools were
   * indexed this way, the next call builds from scratch, so words of removed tools do not pile up.
   *
   * @throws TypeError when an entry has no name, belongs to another server, or its name is taken.
   */
  replaceServer(server: string, entries: readonly ToolIndexEntry[]): ToolIndex;
  /**
   * {@link ToolIndex.replaceServer} for several servers at once, in one pass over the catalogue (servers
   * that came up together, a burst of `tools/list_changed`): the same result as replacing them one by
   * one in the map's order, at the cost of one. A name may move between the servers of one call.
   *
   * @throws TypeError as `replaceServer` does, for any of the servers.
   */
  replaceServers(changes: ReadonlyMap<string, readonly ToolIndexEntry[]>): ToolIndex;
  /** Number of tools in the index. */
  readonly size: number;
}
