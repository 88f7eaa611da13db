import { assembleBm25f } from './bm25f.js';
import { reciprocalRankFusion } from './fusion.js';
import { createLexicalRanker, DEFAULT_TUNING, type LexicalRanker, type ToolIndexTuning } from './lexical-ranker.js';
import { regexSearch, type RegexDocument } from './regex-search.js';
import { requiredNames, type SchemaText, schemaText } from './schema-text.js';
import { createSemanticRanker, DEFAULT_QUERY_TIMEOUT_MS, type SemanticRanker } from './semantic-ranker.js';
import { tokenizeTools, type ToolText, Vocabulary } from './tool-terms.js';
import type {
  ToolIndex,
  ToolIndexEntry,
  ToolIndexOptions,
  ToolSearchHit,
  ToolSearchOptions,
  ToolSearchWarning,
} from './types.js';

const DEFAULT_LIMIT = 5;
/**
 * Searches one {@link ToolIndex.warmUp} runs. With `--trace-opt` on a 10,000-tool host, three were
 * enough for V8 to optimise every ranking function; one more for margin.
 */
export const WARM_UP_SEARCHES = 4;
// A warm-up query is the start of a tool's description: the words a model searches with.
const WARM_UP_QUERY_CHARS = 200;
// How deep each ranking goes into the fusion: well past any limit a model asks for, so that a tool
// ranked moderately by both rankings can still rise to the top.
const FUSION_DEPTH = 100;

function normalizeLimit(limit: number | undefined, size: number): number {
  const l = limit === undefined || Number.isNaN(limit) ? DEFAULT_LIMIT : Math.floor(limit);
  return Math.max(0, Math.min(l, size));
}

function toDocuments(entries: readonly ToolIndexEntry[], seen = new Set<string>(), where = 'createToolIndex'): ToolText[] {
  if (!Array.isArray(entries))
    throw new TypeError(`${where}: entries must be an array of { name, description?, inputSchema?, server? }.`);
  return entries.map((e, i) => {
    if (!e || typeof e.name !== 'string' || e.name.length === 0)
      throw new TypeError(`${where}: entry ${i} has no name; every tool needs a non-empty string name.`);
    if (seen.has(e.name))
      throw new TypeError(`${where}: duplicate tool name "${e.name}"; tool names must be unique in one index.`);
    seen.add(e.name);
    return new ToolDocument(
      e.name,
      typeof e.server === 'string' ? e.server : '',
      typeof e.description === 'string' ? e.description : '',
      schemaText(e.inputSchema),
      requiredNames(e.inputSchema),
    );
  });
}

/**
 * A tool's text. The index reads the parameter names, descriptions and example values one by one
 * (`paramText`); the joined `params` string only regex search needs, so it is made on its first use,
 * not per build.
 */
class ToolDocument implements ToolText {
  private joined: string | undefined;

  constructor(
    readonly name: string,
    readonly server: string,
    readonly description: string,
    readonly paramText: SchemaText,
    readonly required: readonly string[] | undefined,
  ) {}

  get params(): string {
    this.joined ??= [...this.paramText.names, ...this.paramText.descriptions].join('\n');
    return this.joined;
  }
}

/**
 * Builds a search index over tool metadata (the engine behind `tool_search`).
 *
 * `search` is lexical and synchronous: BM25F over name, server, description, parameter text and the
 * schema's example values, with identifier splitting, Porter stemming, one-edit typo correction,
 * per-clause scoring of multi-part requests, small bonuses for name coverage, same-server tools and
 * tools or servers named outright, and the prerequisite tools of the best hits (the sibling that
 * produces a required value, see prerequisites.ts).
 * With `embeddingModel`, `searchAsync` fuses it with cosine similarity of embeddings (reciprocal rank fusion).
 *
 * @param entries Tools to index; names must be unique.
 * @param options Semantic retrieval, cache folder, warnings, and (for experiments) ranking parameters.
 * @throws TypeError when an entry has no string `name`, two entries share a name, or the model is not an embedding model.
 */
export function createToolIndex(entries: readonly ToolIndexEntry[], options: ToolIndexOptions = {}): ToolIndex {
  const tuning: ToolIndexTuning = { ...DEFAULT_TUNING, ...options.tuning };
  const docs = toDocuments(entries);
  const onWarning = options.onWarning ?? ((w: ToolSearchWarning) => console.warn(`tool_search: ${w.message}`));
  const semantic: SemanticRanker | undefined = options.embeddingModel
    ? createSemanticRanker({
        model: options.embeddingModel,
        entries,
        cacheDir: options.cacheDir,
        onWarning,
        queryTimeoutMs: options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
      })
    : undefined;
  return makeIndex({ entries, docs, tuning, lexical: createLexicalRanker(docs, tuning), semantic, onWarning, derived: 0 });
}

// A derived index whose tools were mostly tokenized for it, or whose vocabulary has drifted far from
// the catalogue (words of removed tools stay known), is rebuilt from scratch instead.
const MAX_DERIVED_SHARE = 0.5;

interface IndexState {
  entries: readonly ToolIndexEntry[];
  docs: ToolText[];
  tuning: ToolIndexTuning;
  lexical: LexicalRanker;
  semantic: SemanticRanker | undefined;
  onWarning: (w: ToolSearchWarning) => void;
  /** Tools indexed by derivation since the last full build (for {@link MAX_DERIVED_SHARE}). */
  derived: number;
}

function makeIndex(state: IndexState): ToolIndex {
  const { docs, lexical, semantic, onWarning } = state;
  // Start computing tool vectors now; hosts that want them before the first query await ready().
  void semantic?.ready();
  function search(query: string, opts: ToolSearchOptions = {}): ToolSearchHit[] {
    const limit = normalizeLimit(opts.limit, docs.length);
    if (opts.regex) return regexSearch(query, docs, limit);
    if (typeof query !== 'string' || limit === 0) return [];
    return lexical.rank(query, limit).map(({ doc, score }) => ({ name: (docs[doc] as RegexDocument).name, score }));
  }

  async function searchAsync(query: string, opts: ToolSearchOptions = {}): Promise<ToolSearchHit[]> {
    const limit = normalizeLimit(opts.limit, docs.length);
    if (!semantic || opts.regex || typeof query !== 'string' || limit === 0 || query.trim().length === 0)
      return search(query, opts);
    const lexicalRanked = lexical.rank(query, FUSION_DEPTH).map((r) => r.doc);
    let semanticRanked: number[];
    try {
      semanticRanked = await semantic.rank(query, FUSION_DEPTH);
    } catch (cause) {
      onWarning({
        kind: 'query-embedding',
        message: `could not embed the query (${(cause as Error)?.message ?? String(cause)}); this search is lexical only`,
        cause,
      });
      return search(query, opts);
    }
    if (semanticRanked.length === 0) return search(query, opts);
    return reciprocalRankFusion([lexicalRanked, semanticRanked], limit).map(([doc, score]) => ({
      name: (docs[doc] as RegexDocument).name,
      score,
    }));
  }

  function warmUp(): number {
    // Searches made of the tools' own text never meet an unknown word or an identifier: the tables
    // those need are built here, so a real first search with a typo does not build them.
    lexical.prepare();
    const searches = Math.min(WARM_UP_SEARCHES, docs.length);
    for (let k = 0; k < searches; k++) {
      // Tools spread over the catalogue, so the queries reach different servers' postings.
      const doc = docs[Math.floor(((k + 0.5) * docs.length) / searches)] as ToolText;
      lexical.rank((doc.description.trim() || doc.name).slice(0, WARM_UP_QUERY_CHARS), DEFAULT_LIMIT);
    }
    return searches;
  }

  function replaceServer(server: string, serverEntries: readonly ToolIndexEntry[]): ToolIndex {
    return replaceServers(new Map([[server, serverEntries]]));
  }

  function replaceServers(changes: ReadonlyMap<string, readonly ToolIndexEntry[]>): ToolIndex {
    if (!(changes instanceof Map)) throw new TypeError('replaceServers: changes must be a Map of server name → its tools.');
    const added: ToolIndexEntry[] = [];
    for (const [server, serverEntries] of changes) {
      if (typeof server !== 'string' || server.length === 0)
        throw new TypeError('replaceServer: server must be a non-empty string (the server whose tools change).');
      const where = `replaceServer("${server}")`;
      if (!Array.isArray(serverEntries)) throw new TypeError(`${where}: entries must be an array of tools.`);
      serverEntries.forEach((e, i) => {
        if (e && e.server !== undefined && e.server !== server)
          throw new TypeError(
            `${where}: entry ${i} ("${e.name}") belongs to server "${e.server}"; pass only this server's tools.`,
          );
      });
      for (const e of serverEntries) added.push({ ...e, server });
    }
    // Every changed server's old tools go first, so a name may move between changed servers.
    const keep: number[] = [];
    docs.forEach((d, i) => {
      if (!changes.has(d.server)) keep.push(i);
    });
    const seen = new Set(keep.map((i) => (docs[i] as RegexDocument).name));
    const where = changes.size === 1 ? `replaceServer("${[...changes.keys()][0]}")` : 'replaceServers';
    const addedDocs = toDocuments(added, seen, where);
    const entries = [...keep.map((i) => state.entries[i] as ToolIndexEntry), ...added];
    const nextDocs = [...keep.map((i) => docs[i] as ToolText), ...addedDocs];
    const derived = state.derived + addedDocs.length;
    const semanticNext = semantic ? createSemanticRanker({ ...semantic.options, entries, seed: semantic.vectors() }) : undefined;
    if (derived > MAX_DERIVED_SHARE * Math.max(1, nextDocs.length)) {
      const fresh = createLexicalRanker(nextDocs, state.tuning);
      return makeIndex({ ...state, entries, docs: nextDocs, lexical: fresh, semantic: semanticNext, derived: 0 });
    }
    // Unchanged tools keep their term ids; only the server's new tools are read.
    const vocabulary = new Vocabulary(lexical.index.vocabulary);
    const tools = [
      ...keep.map((i) => lexical.index.tools[i] as (typeof lexical.index.tools)[number]),
      ...tokenizeTools(addedDocs, vocabulary, state.tuning.namePieces > 0),
    ];
    const ix = assembleBm25f(tools, vocabulary, state.tuning);
    const next = createLexicalRanker(nextDocs, state.tuning, ix, { ranker: lexical, keep });
    return makeIndex({ ...state, entries, docs: nextDocs, lexical: next, semantic: semanticNext, derived });
  }

  return {
    search,
    searchAsync,
    warmUp,
    replaceServer,
    replaceServers,
    ready: () => (semantic ? semantic.ready() : Promise.resolve(false)),
    get size() {
      return docs.length;
    },
  };
}
