import { tokenizeCatalog } from './catalog-tokens.js';
import { ToolSearchQueryError } from './errors.js';
import { FuzzyVocabulary } from './fuzzy.js';
import { NameKeys } from './name-keys.js';
import { segmentNameWords } from './name-segments.js';
import { buildPostings, nameTerms } from './postings.js';
import { regexSearch } from './regex-search.js';
import { segment } from './segment.js';
import { synonymsOf } from './synonyms.js';
import { compact, compoundIdentifiers, isStopWord, parseQuery, splitWords, stem, type QueryWord } from './text.js';
import type { ToolIndex, ToolIndexEntry, ToolSearchHit, ToolSearchOptions } from './types.js';

/**
 * Ranking parameters. Few on purpose, each with a reason; chosen on one benchmark set and checked on
 * another (see bench/tool-search), not fitted per catalog. Exposed for experiments; the defaults are
 * what `tool_search` uses.
 */
export interface ToolIndexTuning {
  /** BM25 term-frequency saturation. */
  k1: number;
  /** BM25F field weights: name, server, description, parameters (names + descriptions). */
  fieldWeights: readonly [number, number, number, number];
  /** Field length normalisation (BM25 b) per field, same order. */
  fieldB: readonly [number, number, number, number];
  /** Weight of a query word's generic synonyms ("fetch" for "get"); 0 turns them off. */
  synonymWeight: number;
  /** Weight of a one-edit typo correction of an unknown query word. */
  typoWeight: number;
  /** Weight of the pieces of an unknown run-together query word ("getweather"), and of two query words joined into one catalog word ("zip code" → "zipcode"). */
  splitWeight: number;
  /** Weight of query words inside quotes: they are usually argument values, not what the tool does. */
  quotedWeight: number;
  /** Bonus, as a fraction of the best score, × the idf-weighted share of the tool's name words in the query. */
  nameCoverage: number;
  /** Share of the score that comes from the best-matching clause of a multi-part query (0 = off). */
  clauseMix: number;
  /** Share of the best score in a tool's server added to the tool (tools of one server travel together). */
  siblingShare: number;
  /** Bonus, as a fraction of the best score, when the query names a tool as an identifier ("create_issue"). */
  nameBonus: number;
  /** Bonus, as a fraction of the best score, for every tool of a server the query names ("github"). */
  serverBonus: number;
  /** Split run-together name words ("bulkgenerateguids") into words the catalog uses elsewhere. */
  segmentNames: boolean;
  /**
   * Tools scoring under this fraction of the best (on the whole query or on one clause) are not
   * re-scored: the bonuses cannot lift them into the results, and skipping them keeps queries fast.
   */
  candidateFloor: number;
}

/** Default ranking parameters (see bench/tool-search/README.md for how they were chosen). */
export const DEFAULT_TUNING: Readonly<ToolIndexTuning> = Object.freeze({
  k1: 1.2,
  fieldWeights: [3, 1.5, 1.5, 0.5] as const,
  fieldB: [0.5, 0.3, 0.9, 0.9] as const,
  synonymWeight: 0.3,
  typoWeight: 0.7,
  splitWeight: 0.5,
  quotedWeight: 0.5,
  nameCoverage: 0.2,
  clauseMix: 0.6,
  siblingShare: 0.4,
  nameBonus: 0.3,
  serverBonus: 0.3,
  segmentNames: true,
  candidateFloor: 0.35,
});

const DEFAULT_LIMIT = 5;
// Longer queries are cut: ranking quality does not improve past a few paragraphs, latency would.
const MAX_QUERY_CHARS = 4000;
// Longest run of query words joined to look for a tool or server name ("create issue" → "createissue").
const MAX_NAME_NGRAM = 5;

/** Query terms after normalisation: parallel arrays of term ids and weights. */
interface QueryTerms {
  /** Terms to score. */
  ids: number[];
  /** Every term whose weight was set in qWeight (a superset of ids), for clearing it. */
  all: number[];
  weights: number[];
  /** Σ weight × idf. */
  mass: number;
}

/**
 * Builds an in-memory search index over tool metadata (the engine behind `tool_search`).
 *
 * Ranking is BM25F over four fields (name, server, description, parameter text) with identifier
 * splitting (camelCase, snake_case, kebab-case, digits), a light stemmer, generic synonyms, one-edit typo
 * correction and compound splitting for unknown query words, a lower weight for quoted argument values,
 * per-clause scoring of multi-part requests, a name-coverage bonus, a same-server bonus, and a boost when
 * the query spells a tool or server name. `search(q, { regex: true })` matches a pattern instead.
 *
 * The index keeps only names, descriptions, server names and schema property text, never the schemas.
 *
 * @param entries Tools to index; names must be unique.
 * @param tuning Ranking parameters to override (experiments; the defaults are the supported setting).
 * @throws TypeError when an entry has no string `name` or two entries share a name.
 */
export function createToolIndex(entries: readonly ToolIndexEntry[], tuning: Partial<ToolIndexTuning> = {}): ToolIndex {
  const t: ToolIndexTuning = { ...DEFAULT_TUNING, ...tuning };
  if (!Array.isArray(entries)) throw new TypeError('createToolIndex: entries must be an array of { name, description?, inputSchema?, server? }.');
  // Pass 1: tokens per field, as flat typed arrays (doc order, field order).
  const cat = tokenizeCatalog(entries);
  // Only what queries need is kept; the token arrays are dropped after the build.
  const { names, words, vocab, vocabTerms, serverOf, serverDocs, serverNames, regexDocs } = cat;
  const n = names.length;
  /** Term id of a raw lower-case word (-1: stop word), or undefined when the catalog never uses it. */
  const termOfWord = (word: string): number | undefined => {
    const entry = words.find(word);
    return entry < 0 ? undefined : (words.values[entry] as number);
  };

  // Pass 2: split run-together name words, then postings with BM25F impacts and per-tool name terms.
  const V = vocabTerms.length;
  const extra = t.segmentNames ? segmentNameWords(cat) : { doc: [], term: [] };
  const { idf, postStart, postDoc, postImpact } = buildPostings(cat, extra, t);
  const { nameStart, nameTermList, nameMass } = nameTerms(cat, idf);

  // Whole-name lookup (identifier mentions) and the compact server names.
  const nameKeys = new NameKeys(names);
  const serverKeys = new Map<string, number>();
  const serverFirstWords = new Set<string>();
  serverNames.forEach((s, sid) => {
    const key = compact(s);
    if (key.length >= 3 && !serverKeys.has(key)) serverKeys.set(key, sid);
    const first = splitWords(s)[0];
    if (first) serverFirstWords.add(first);
  });

  const fuzzy = new FuzzyVocabulary(vocabTerms, vocab);
  // Run-together query words are split into words the catalog contains as written.
  const isCatalogWord = (piece: string): boolean => words.find(piece) >= 0;

  // Query-time scratch, reused across calls (searches are synchronous). Score arrays are scanned and
  // cleared linearly: at 10,000 tools a sequential pass costs microseconds, less than tracking touched docs.
  const acc = new Float64Array(n);
  const clauseAcc = new Float64Array(n);
  const clauseBest = new Float64Array(n);
  const clauseDocs = new Int32Array(n);
  const isCandidate = new Uint8Array(n);
  const candidates = new Int32Array(n);
  const serverBest = new Float64Array(serverNames.length);
  const qWeight = new Float64Array(V);

  function queryTerms(words: readonly QueryWord[], extraIdentifiers: readonly string[] = [], expand = true): QueryTerms {
    const ids: number[] = [];
    let wordWeight = 1;
    const put = (id: number, w: number): void => {
      const v = w * wordWeight;
      const old = qWeight[id] as number;
      if (old === 0) ids.push(id);
      if (v > old) qWeight[id] = v;
    };
    for (const { word, weight } of words) {
      if (isStopWord(word)) continue;
      wordWeight = weight;
      const s = stem(word);
      const id = vocab.get(s) ?? vocab.get(word);
      if (id !== undefined) {
        put(id, 1);
        if (expand && t.synonymWeight > 0) {
          for (const syn of synonymsOf(s)) {
            const sid = vocab.get(syn);
            if (sid !== undefined) put(sid, t.synonymWeight);
          }
        }
        continue;
      }
      if (/[0-9]/.test(word)) continue;
      // Unknown word: a one-edit typo of a known term, else a run-together pair of known terms.
      let near = fuzzy.near(s);
      if (near.length === 0 && s !== word) near = fuzzy.near(word);
      if (near.length > 0) {
        for (const nid of near) put(nid, t.typoWeight);
        continue;
      }
      const pieces = segment(word, isCatalogWord, 24);
      if (pieces) {
        for (const p of pieces) {
          const pid = termOfWord(p) as number;
          if (pid >= 0) put(pid, t.splitWeight);
        }
      }
    }
    // Two query words the catalog writes as one ("zip code" → "zipcode", "user name" → "username").
    wordWeight = 1;
    for (let i = 0; i + 1 < words.length; i++) {
      const a = words[i] as QueryWord;
      const b = words[i + 1] as QueryWord;
      const joined = termOfWord(a.word + b.word);
      if (joined !== undefined && joined >= 0) {
        wordWeight = Math.min(a.weight, b.weight);
        put(joined, t.splitWeight);
      }
    }
    // Identifiers written run-together or in mixed case ("WhoIS", "get_weather") may be a single
    // catalog word ("whois", "getweather").
    wordWeight = 1;
    for (const ident of extraIdentifiers) {
      const id = vocab.get(ident);
      if (id !== undefined) put(id, 1);
    }
    const weights: number[] = [];
    let mass = 0;
    for (const id of ids) {
      const w = qWeight[id] as number;
      weights.push(w);
      mass += w * (idf[id] as number);
    }
    return { ids, all: ids, weights, mass };
  }

  /** Adds Σ weight × impact of the query terms into `into`; returns the best score. */
  function accumulate(q: QueryTerms, into: Float64Array): number {
    for (let k = 0; k < q.ids.length; k++) {
      const id = q.ids[k] as number;
      const w = q.weights[k] as number;
      const end = postStart[id + 1] as number;
      for (let i = postStart[id] as number; i < end; i++) {
        const d = postDoc[i] as number;
        into[d] = (into[d] as number) + w * (postImpact[i] as number);
      }
    }
    let best = 0;
    for (let d = 0; d < n; d++) if ((into[d] as number) > best) best = into[d] as number;
    return best;
  }

  function rank(query: string, limit: number): ToolSearchHit[] {
    const text = query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query;
    const parsed = parseQuery(text, t.quotedWeight);
    const words = parsed.words;
    const identifiers = compoundIdentifiers(text);
    const full = queryTerms(words, identifiers); // qWeight holds the full query's weights until cleared below
    const top = accumulate(full, acc);
    // Candidates: tools within reach of the top. Only they get the (per-tool, costlier) bonuses below;
    // a tool under candidateFloor × best cannot climb into the results through them.
    let nc = 0;
    const addCandidate = (d: number): void => {
      if (isCandidate[d] === 0) {
        isCandidate[d] = 1;
        candidates[nc++] = d;
      }
    };
    if (top > 0) {
      const floor = top * t.candidateFloor;
      for (let d = 0; d < n; d++) if ((acc[d] as number) >= floor) addCandidate(d);
      if (t.clauseMix > 0 && parsed.clauses.length > 1) mixClauses(parsed.clauses, full, addCandidate);
      for (let c = 0; c < nc; c++) {
        const d = candidates[c] as number;
        let score = acc[d] as number;
        // How much of the tool's own name the query covers (idf-weighted): "format_date" for "date ... format".
        const mass = nameMass[d] as number;
        if (t.nameCoverage > 0 && mass > 0) {
          let matched = 0;
          for (let j = nameStart[d] as number; j < (nameStart[d + 1] as number); j++) {
            const term = nameTermList[j] as number;
            matched += Math.min(1, qWeight[term] as number) * (idf[term] as number);
          }
          score += (t.nameCoverage * top * matched) / mass;
        }
        if (t.clauseMix > 0) score = (1 - t.clauseMix) * score + t.clauseMix * top * (clauseBest[d] as number);
        acc[d] = score;
      }
      if (t.siblingShare > 0 && serverNames.length > 0) {
        for (let c = 0; c < nc; c++) {
          const d = candidates[c] as number;
          const sid = serverOf[d] as number;
          if (sid >= 0 && (acc[d] as number) > (serverBest[sid] as number)) serverBest[sid] = acc[d] as number;
        }
        for (let c = 0; c < nc; c++) {
          const d = candidates[c] as number;
          const sid = serverOf[d] as number;
          if (sid >= 0) acc[d] = (acc[d] as number) + t.siblingShare * (serverBest[sid] as number);
        }
        for (let c = 0; c < nc; c++) {
          const sid = serverOf[candidates[c] as number] as number;
          if (sid >= 0) serverBest[sid] = 0;
        }
      }
    }
    for (const id of full.all) qWeight[id] = 0;
    if (t.nameBonus > 0 || t.serverBonus > 0) mentionBonus(words, identifiers, top > 0 ? top : 1, addCandidate);

    const out = topK(acc, candidates, nc, limit);
    acc.fill(0);
    if (t.clauseMix > 0) clauseBest.fill(0);
    for (let c = 0; c < nc; c++) isCandidate[candidates[c] as number] = 0;
    return out.map(([d, score]) => ({ name: names[d] as string, score }));
  }

  /**
   * Multi-part requests ("find X. Also do Y", "X and Y"): each clause is ranked on its own, and a tool's
   * best clause score relative to that clause's best tool (in clauseBest) is mixed into its score, so
   * the tools of a short second clause are not crowded out by the first one.
   */
  function mixClauses(clauses: readonly QueryWord[][], full: QueryTerms, addCandidate: (d: number) => void): void {
    // qWeight holds the full query's weights; clause terms are collected with it cleared, then restored.
    const saved = full.all.map((id) => qWeight[id] as number);
    for (const id of full.all) qWeight[id] = 0;
    for (const clause of clauses) {
      // Synonyms are left to the whole-query score: in every clause they would multiply the work.
      const cq = queryTerms(clause, [], false);
      for (const id of cq.all) qWeight[id] = 0;
      if (cq.ids.length === 0) continue;
      // Clause terms are few: track the docs they touch instead of scanning every tool.
      let nc = 0;
      let best = 0;
      for (let k = 0; k < cq.ids.length; k++) {
        const id = cq.ids[k] as number;
        const w = cq.weights[k] as number;
        const end = postStart[id + 1] as number;
        for (let i = postStart[id] as number; i < end; i++) {
          const d = postDoc[i] as number;
          const before = clauseAcc[d] as number;
          if (before === 0) clauseDocs[nc++] = d;
          const v = before + w * (postImpact[i] as number);
          clauseAcc[d] = v;
          if (v > best) best = v;
        }
      }
      const floor = best * t.candidateFloor;
      for (let i = 0; i < nc; i++) {
        const d = clauseDocs[i] as number;
        const v = clauseAcc[d] as number;
        clauseAcc[d] = 0;
        if (v < floor || !(best > 0)) continue;
        addCandidate(d);
        if (v / best > (clauseBest[d] as number)) clauseBest[d] = v / best;
      }
    }
    full.all.forEach((id, i) => (qWeight[id] = saved[i] as number));
  }

  /** Outright mentions of a tool name or a server name: joined runs of query words, or identifiers. */
  function mentionBonus(words: readonly QueryWord[], identifiers: readonly string[], base: number, addCandidate: (d: number) => void): void {
    // A tool name counts as mentioned only when written as an identifier ("get_weather", "listRepos"):
    // plain words that happen to spell a name ("get id") proved too weak a signal. A server name may be
    // plain words or a single word ("github", "google maps").
    const serverMentions: string[] = [...identifiers];
    for (let i = 0; i < words.length; i++) {
      let key = (words[i] as QueryWord).word;
      // Only runs that start like a server name are joined (keeps long queries allocation-light).
      if (!serverFirstWords.has(key)) continue;
      serverMentions.push(key);
      for (let j = i + 1; j < Math.min(words.length, i + MAX_NAME_NGRAM); j++) {
        key += (words[j] as QueryWord).word;
        serverMentions.push(key);
      }
    }
    const boosted = new Set<number>();
    const boost = (d: number, amount: number): void => {
      addCandidate(d);
      acc[d] = (acc[d] as number) + amount;
    };
    for (const key of identifiers) {
      const docs = t.nameBonus > 0 ? nameKeys.docs(key) : undefined;
      if (docs) {
        for (const d of docs) {
          if (boosted.has(d)) continue;
          boosted.add(d);
          boost(d, t.nameBonus * base);
        }
      }
    }
    if (t.serverBonus <= 0) return;
    const boostedServers = new Set<number>();
    for (const key of serverMentions) {
      const sid = serverKeys.get(key);
      if (sid === undefined || boostedServers.has(sid)) continue;
      boostedServers.add(sid);
      for (const d of serverDocs[sid] as number[]) boost(d, t.serverBonus * base);
    }
  }

  return {
    size: n,
    search(query: string, options: ToolSearchOptions = {}): ToolSearchHit[] {
      const limit = normaliseLimit(options?.limit, n);
      if (options?.regex) {
        if (typeof query !== 'string') throw new ToolSearchQueryError('The regex query must be a string.', { query: String(query) });
        return regexSearch(query, regexDocs(), limit);
      }
      if (typeof query !== 'string' || limit === 0) return [];
      return rank(query, limit);
    },
  };
}

function normaliseLimit(limit: number | undefined, n: number): number {
  if (limit === undefined || limit === null || Number.isNaN(limit)) return Math.min(DEFAULT_LIMIT, n);
  if (!(limit >= 1)) return 0;
  return Math.min(Math.floor(limit), n);
}

/** Top `k` of `docs` with a positive score, best first; ties go to the earlier catalog entry. */
function topK(scores: Float64Array, docs: Int32Array, count: number, k: number): [number, number][] {
  const better = (d1: number, s1: number, d2: number, s2: number): boolean => s1 > s2 || (s1 === s2 && d1 < d2);
  const top: [number, number][] = [];
  if (k > 64) {
    // Large limits: a plain sort beats insertion.
    for (let i = 0; i < count; i++) {
      const d = docs[i] as number;
      if ((scores[d] as number) > 0) top.push([d, scores[d] as number]);
    }
    top.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return top.length > k ? top.slice(0, k) : top;
  }
  for (let i = 0; i < count; i++) {
    const d = docs[i] as number;
    const s = scores[d] as number;
    if (!(s > 0)) continue;
    if (top.length === k) {
      const last = top[k - 1] as [number, number];
      if (!better(d, s, last[0], last[1])) continue;
    }
    let j = top.length;
    while (j > 0 && better(d, s, (top[j - 1] as [number, number])[0], (top[j - 1] as [number, number])[1])) j--;
    top.splice(j, 0, [d, s]);
    if (top.length > k) top.pop();
  }
  return top;
}
