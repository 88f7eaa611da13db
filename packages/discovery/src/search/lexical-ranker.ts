import { buildBm25f, type Bm25fIndex, invertNameTerms } from './bm25f.js';
import {
  compoundIdentifiers,
  flatten,
  isContextClause,
  isStopWord,
  joinListItems,
  queryWords,
  splitClauses,
  stem,
  type QueryWord,
} from './text.js';
import { discountCommonWords, loadCommonWords } from './common-words.js';
import { CatalogueNames } from './names.js';
import { findPrerequisites, type Prerequisites } from './prerequisites.js';
import { buildServerDocuments } from './server-documents.js';
import type { ToolText } from './tool-terms.js';
import { UnknownWords } from './unknown-words.js';

/**
 * Ranking parameters of the lexical path. Few on purpose, each with a reason; the same values on every
 * catalogue (chosen as bench/tool-search/README.md describes). Exposed for experiments only.
 */
export interface ToolIndexTuning {
  /** BM25 term-frequency saturation. */
  k1: number;
  /** BM25F field weights: name, server, description, parameters (names + descriptions), example values. */
  fieldWeights: readonly [number, number, number, number, number];
  /** Field length normalization (BM25 b) per field, same order. */
  fieldB: readonly [number, number, number, number, number];
  /** Weight, relative to the name, of the pieces of run-together name words ("searchjobs" → search, jobs); 0 = off. */
  namePieces: number;
  /** Weight of query words inside quotes: they are usually argument values, not what the tool does. */
  quotedWeight: number;
  /** Weight of numbers standing alone in the query ("87654", "192.168.1.1"): argument values too. */
  numberWeight: number;
  /** Weight of a one-edit typo correction of an unknown query word. */
  typoWeight: number;
  /** Weight of the pieces of a run-together query word, and of two query words the catalogue writes as one. */
  splitWeight: number;
  /** Bonus, as a fraction of the best score, × the idf-weighted share of the tool's name terms in the query. */
  nameCoverage: number;
  /** Share of the score from the tool's best clause of a multi-part request, relative to that clause's best (0 = off). */
  clauseMix: number;
  /**
   * How much a part that only describes the speaker ("We are a retailer in Spain") counts as a clause
   * of its own in the clause mix (0 = not at all: its words count in the whole request only; 1 = as a request).
   */
  contextClauses: number;
  /** Share of the best score among a tool's server siblings added to the tool (tools of a server travel together). */
  siblingShare: number;
  /**
   * Share of the best score × the tool's server's own score relative to the best server's, where each
   * server's tools are read as one document (see server-documents.ts; 0 = off).
   */
  serverDocumentShare: number;
  /** BM25 k1 of the server documents. */
  serverDocumentK1: number;
  /** BM25 b of the server documents. */
  serverDocumentB: number;
  /** Bonus, as a fraction of the best score, when the query spells a tool name as an identifier ("create_issue"). */
  nameBonus: number;
  /** Bonus, as a fraction of the best score, for the tools of a server the query names ("github"). */
  serverBonus: number;
  /**
   * Discount of common English words in long requests (see common-words.ts): a word of frequency rank r
   * weighs (ln(r + 1) / ln 10,001)^e, e = this × n / (n + `commonWordsHalfLength`) for a request of n
   * content words (0 = off).
   */
  commonWords: number;
  /** Content words at which a request gets half the common-word discount exponent. */
  commonWordsHalfLength: number;
  /** Query term frequency: a word said c times weighs c^queryTf (0 = once, 1 = every time). */
  queryTf: number;
  /**
   * BM25+ (Lv & Zhai 2011): every matched term weighs at least `delta` × its idf, so a long text that
   * names a query word once is not scored as if it barely had it (0 = plain BM25).
   */
  delta: number;
  /**
   * A prerequisite tool (same server, produces a value a tool requires; see prerequisites.ts) of one of
   * the best tools scores at least this share of that tool's score (0 = off).
   */
  prerequisiteShare: number;
  /** How many of the best tools lend their score to their prerequisite tools. */
  prerequisiteDepth: number;
  /** Pseudo-relevance feedback (RM3): how many top tools lend expansion terms (0 = off). */
  prfDocs: number;
  /** Pseudo-relevance feedback: how many expansion terms are added. */
  prfTerms: number;
  /** Pseudo-relevance feedback: weight of the expansion terms relative to the query's (their weights sum to this). */
  prfWeight: number;
}

/** Default ranking parameters (see bench/tool-search/README.md for how they were chosen). */
export const DEFAULT_TUNING: Readonly<ToolIndexTuning> = Object.freeze({
  k1: 1.2,
  fieldWeights: [2, 1, 1, 0.5, 0.5] as const,
  fieldB: [0.5, 0.5, 0.9, 0.75, 0.5] as const,
  namePieces: 0.5,
  quotedWeight: 0.5,
  numberWeight: 0.5,
  typoWeight: 0.7,
  splitWeight: 0.5,
  nameCoverage: 0.2,
  clauseMix: 0.5,
  contextClauses: 0.5,
  siblingShare: 1,
  serverDocumentShare: 0.4,
  serverDocumentK1: 3,
  serverDocumentB: 0.75,
  nameBonus: 0.3,
  serverBonus: 0.3,
  commonWords: 1,
  commonWordsHalfLength: 200,
  queryTf: 0.5,
  delta: 0.25,
  prerequisiteShare: 0.8,
  prerequisiteDepth: 10,
  prfDocs: 0,
  prfTerms: 10,
  prfWeight: 0.5,
});

// Longer queries are cut: ranking quality does not improve past a few paragraphs, latency would.
const MAX_QUERY_CHARS = 4000;
// Sparse accumulation (a mark and an append per posting) below n / SPARSE_SHARE postings, else dense (a pass over n).
const SPARSE_SHARE = 4;

/** A ranked tool: catalogue position and score. */
export interface RankedDoc {
  /** Position in the indexed entries. */
  doc: number;
  /** Lexical score (> 0). */
  score: number;
}

/** The lexical ranker over a catalogue. */
export interface LexicalRanker {
  /** Best `limit` tools for `query`, best first; [] when no query term is in the catalogue. */
  rank(query: string, limit: number): RankedDoc[];
  /** The BM25F index (a derived index reuses its vocabulary and per-tool term ids). */
  index: Bm25fIndex;
  /** Its unknown-word lookups (a derived index extends their typo table). */
  unknown: UnknownWords;
  /** Its prerequisite links, when on (a derived index keeps those of unchanged servers). */
  links: Prerequisites | undefined;
  /** Builds the tables the first searches would build (typo corrections, tools named as identifiers). */
  prepare(): void;
}

/** The index a derived one comes from (`replaceServer`), and which of its tools the derived one kept. */
export interface DerivedFrom {
  ranker: LexicalRanker;
  /** `keep[i]` is the earlier index's number of the new index's tool i; tools from `keep.length` on are new. */
  keep: readonly number[];
}

/** Builds the lexical ranker: BM25F plus a few catalogue-independent query rules and bonuses. */
export function createLexicalRanker(
  entries: readonly ToolText[],
  t: ToolIndexTuning,
  ix: Bm25fIndex = buildBm25f(entries, t),
  from?: DerivedFrom,
): LexicalRanker {
  const { n, vocab, idf, postStart, postDoc, postImpact, nameMass } = ix;
  const isCatalogueWord = (w: string): boolean => (ix.wordIds.get(w) ?? -1) >= 0;
  // Derived (`from`: the index this one replaces a server of, whose term ids ours extend): its typo
  // table is extended rather than built again on the first search after every list_changed.
  const unknown = new UnknownWords(ix.terms, isCatalogueWord, from?.ranker.unknown);

  // Servers and names the query may mention outright.
  const names = new CatalogueNames(entries);
  const serverOf = names.serverOf;

  // Query-time scratch, reused (searches are synchronous).
  const acc = new Float64Array(n);
  const clauseAcc = new Float64Array(n);
  const clauseBest = new Float64Array(n);
  const seen = new Uint8Array(n);
  // Per clause: only the tools the clause's terms touch are visited (a long request has many clauses).
  const clauseSeen = new Uint8Array(n);
  const clauseDocs = new Int32Array(n);
  const docs = new Int32Array(n);
  const serverBest = new Float64Array(names.serverCount);
  const qWeight = new Float64Array(ix.terms.length);
  const qCount = new Float64Array(ix.terms.length);
  // Only tools whose name holds a query term get a name-coverage bonus (others add 0): their matched
  // name mass is summed from the query terms' name lists, so no tool's name is read term by term.
  const namedBy = invertNameTerms(ix);
  // Undefined when off or when the catalogue has no links, so a query pays nothing for them.
  const inherited = from?.ranker.links !== undefined ? { links: from.ranker.links, keep: from.keep } : undefined;
  const found = t.prerequisiteShare > 0 ? findPrerequisites(entries, ix, names, namedBy, inherited) : undefined;
  const prerequisites = found !== undefined && found.docs.length > 0 ? found : undefined;
  const nameMatched = new Float64Array(n);
  // The common-word table is read once per process, at the first build rather than the first query.
  if (t.commonWords > 0) loadCommonWords();
  const servers =
    t.serverDocumentShare > 0 ? buildServerDocuments(ix, names, { k1: t.serverDocumentK1, b: t.serverDocumentB }) : undefined;

  /** Query words → distinct term ids with weights (a repeated word counts once, at its highest weight). */
  function queryTerms(words: readonly QueryWord[], identifiers: readonly string[]): { ids: number[]; weights: number[] } {
    const ids: number[] = [];
    const put = (id: number, w: number): void => {
      if (qWeight[id] === 0) ids.push(id);
      qCount[id] = (qCount[id] as number) + 1;
      if (w > (qWeight[id] as number)) qWeight[id] = w;
    };
    for (const { word, weight } of words) {
      if (isStopWord(word)) continue;
      const id = vocab.get(stem(word));
      if (id !== undefined) {
        put(id, weight);
        continue;
      }
      const near = unknown.near(word);
      if (near.length > 0) {
        for (const nid of near) put(nid, weight * t.typoWeight);
        continue;
      }
      for (const piece of unknown.split(word) ?? []) {
        const pid = vocab.get(stem(piece));
        if (pid !== undefined && !isStopWord(piece)) put(pid, weight * t.splitWeight);
      }
    }
    // Two query words the catalogue writes as one ("zip code" → "zipcode").
    for (let i = 0; i + 1 < words.length; i++) {
      const a = words[i] as QueryWord;
      const b = words[i + 1] as QueryWord;
      const joined = a.word + b.word;
      if (isCatalogueWord(joined)) put(vocab.get(stem(joined)) as number, Math.min(a.weight, b.weight) * t.splitWeight);
    }
    // Identifiers the catalogue has as one word ("WhoIS" → "whois").
    for (const ident of identifiers) {
      const id = vocab.get(stem(ident));
      if (id !== undefined) put(id, 1);
    }
    if (t.queryTf > 0) for (const id of ids) qWeight[id] = (qWeight[id] as number) * Math.pow(qCount[id] as number, t.queryTf);
    for (const id of ids) qCount[id] = 0;
    const weights = ids.map((id) => qWeight[id] as number);
    return { ids, weights };
  }

  function clear(ids: readonly number[]): void {
    for (const id of ids) qWeight[id] = 0;
  }

  /** Σ weight × impact into `into`; new docs are appended to `docs` from `count`; returns [count, best]. */
  function accumulate(
    q: { ids: number[]; weights: number[] },
    into: Float64Array,
    count: number,
    mark: Uint8Array,
    list: Int32Array = docs,
  ): [number, number] {
    let best = 0;
    for (let k = 0; k < q.ids.length; k++) {
      const id = q.ids[k] as number;
      const w = q.weights[k] as number;
      const end = postStart[id + 1] as number;
      for (let i = postStart[id] as number; i < end; i++) {
        const d = postDoc[i] as number;
        const v = (into[d] as number) + w * (postImpact[i] as number);
        if (mark[d] === 0) {
          mark[d] = 1;
          list[count++] = d;
        }
        into[d] = v;
        if (v > best) best = v;
      }
    }
    return [count, best];
  }

  /**
   * The whole query: posting lists summed into `acc` without per-posting bookkeeping, then one linear
   * pass collects the touched tools (at 10,000 tools a sequential pass is cheaper than a branch per
   * posting of the frequent terms a long request contains). Returns [count, best].
   */
  function accumulateDense(q: { ids: number[]; weights: number[] }): [number, number] {
    addPostings(q);
    return collectTouched();
  }

  // The loops over postings and over tools are leaf functions of their own, here and in `rank`: V8
  // optimizes a hot loop together with the function around it, and at 10,000 tools every one of them
  // is hot from the first search. Small leaves compile in a fraction of a millisecond, each with the
  // type feedback of its own loop; one large function compiled for several ms per search on V8's
  // helper threads, again after each deoptimization (a loop optimized before the next one had run).

  /** Σ weight × impact of the query's postings into `acc`. */
  function addPostings(q: { ids: number[]; weights: number[] }): void {
    for (let k = 0; k < q.ids.length; k++) {
      const id = q.ids[k] as number;
      const w = q.weights[k] as number;
      const end = postStart[id + 1] as number;
      for (let i = postStart[id] as number; i < end; i++) {
        const d = postDoc[i] as number;
        acc[d] = (acc[d] as number) + w * (postImpact[i] as number);
      }
    }
  }

  /** The tools with a score in `acc`, marked in `seen` and listed in `docs`. Returns [count, best]. */
  function collectTouched(): [number, number] {
    let count = 0;
    let best = 0;
    for (let d = 0; d < n; d++) {
      const v = acc[d] as number;
      if (v > 0) {
        seen[d] = 1;
        docs[count++] = d;
        if (v > best) best = v;
      }
    }
    return [count, best];
  }

  /**
   * {@link accumulateDense}, or {@link accumulate} when the query's postings are few next to n: same sums
   * (same additions, same order) and best (scores only grow); only the order of `docs` differs, which
   * nothing after depends on (top-k breaks ties by catalogue order). Returns [count, best].
   */
  function accumulateQuery(q: { ids: number[]; weights: number[] }): [number, number] {
    let postings = 0;
    for (let k = 0; k < q.ids.length; k++) {
      const id = q.ids[k] as number;
      if (!((q.weights[k] as number) > 0)) return accumulateDense(q); // zero weight (tuning): no 0-score docs
      postings += (postStart[id + 1] as number) - (postStart[id] as number);
    }
    return postings * SPARSE_SHARE < n ? accumulate(q, acc, 0, seen) : accumulateDense(q);
  }

  /**
   * Adds min(1, query weight) × idf of each query term to `nameMatched` of the tools whose name holds it
   * (a tool's name terms are distinct, so each pair counts once). Every such tool holds the term, so it
   * is among the touched tools, whose scoring loop reads and resets its sum.
   */
  function sumNameMatches(ids: readonly number[]): void {
    for (const id of ids) {
      const w = Math.min(1, qWeight[id] as number) * (idf[id] as number);
      const end = namedBy.start[id + 1] as number;
      for (let i = namedBy.start[id] as number; i < end; i++) {
        const d = namedBy.docs[i] as number;
        nameMatched[d] = (nameMatched[d] as number) + w;
      }
    }
  }

  function rank(query: string, limit: number): RankedDoc[] {
    const text = query.length > MAX_QUERY_CHARS ? query.slice(0, MAX_QUERY_CHARS) : query;
    const clauses = t.clauseMix > 0 ? splitClauses(text) : [text];
    const clauseWords = joinListItems(clauses.map((c) => queryWords(c, t.quotedWeight, t.numberWeight)));
    discountCommonWords(clauseWords, t.commonWords, t.commonWordsHalfLength);
    const words = flatten(clauseWords);
    const identifiers = compoundIdentifiers(text);
    const full = queryTerms(words, identifiers);
    const fullWeights = full.ids.map((id) => qWeight[id] as number);
    let [count, top] = accumulateQuery(full);
    if (top > 0 && t.prfDocs > 0) [count, top] = feedback(full, count);
    if (top > 0) {
      // Multi-part requests: each clause ranked alone; a tool's best clause score relative to that
      // clause's best is mixed in, so the tools of a short second request are not crowded out.
      if (t.clauseMix > 0 && clauseWords.length > 1) {
        clear(full.ids);
        for (const cw of clauseWords) {
          // A part that only describes the speaker sets the scene: its words count in the whole
          // request, but it is not a request whose best tools must be kept in view.
          const share = isContextClause(cw) ? t.contextClauses : 1;
          if (share === 0) continue;
          const cq = queryTerms(cw, []);
          clear(cq.ids);
          if (cq.ids.length === 0) continue;
          const [cc, best] = accumulate(cq, clauseAcc, 0, clauseSeen, clauseDocs);
          keepClauseShares(cc, best / share);
        }
        full.ids.forEach((id, k) => (qWeight[id] = fullWeights[k] as number));
      }
      if (t.nameCoverage > 0) sumNameMatches(full.ids);
      scoreTouched(count, top, t.clauseMix > 0 && clauseWords.length > 1);
      // One server: its share would add the same amount to every tool, which ranks nothing but would
      // dilute the score-relative lifts below (prerequisites), so server evidence needs two servers.
      if (serverBest.length > 1) addServerShares(count, top, full.ids, fullWeights);
      // Fewer servers than touched tools: a memset; else only the touched tools' servers.
      if (serverBest.length <= count) serverBest.fill(0);
      else resetServerBest(count);
    }
    clear(full.ids);
    count = mentions(words, identifiers, top > 0 ? top : 1, count);
    if (prerequisites !== undefined) count = liftPrerequisites(prerequisites, count);
    const out = topK(count, limit);
    if (count > n >> 3) {
      // Most tools were touched: clearing whole arrays (memset) beats visiting each.
      acc.fill(0);
      clauseBest.fill(0);
      seen.fill(0);
    } else resetTouched(count);
    return out;
  }

  /** One clause's scores, relative to its best, kept where they beat the tool's best clause so far. */
  function keepClauseShares(cc: number, best: number): void {
    for (let c = 0; c < cc; c++) {
      const d = clauseDocs[c] as number;
      const r = best > 0 ? (clauseAcc[d] as number) / best : 0;
      if (r > (clauseBest[d] as number)) clauseBest[d] = r;
      clauseAcc[d] = 0;
      clauseSeen[d] = 0;
    }
  }

  /** The touched tools' final lexical scores (name coverage, clause mix) and each server's best. */
  function scoreTouched(count: number, top: number, mixClauses: boolean): void {
    for (let c = 0; c < count; c++) {
      const d = docs[c] as number;
      let score = acc[d] as number;
      const matched = nameMatched[d] as number;
      if (matched > 0) {
        score += (t.nameCoverage * top * matched) / (nameMass[d] as number);
        nameMatched[d] = 0;
      }
      if (mixClauses) score = (1 - t.clauseMix) * score + t.clauseMix * top * (clauseBest[d] as number);
      acc[d] = score;
      // Each server's best tool score, for the sibling share.
      const sid = serverOf[d] as number;
      if (sid >= 0 && score > (serverBest[sid] as number)) serverBest[sid] = score;
    }
  }

  /**
   * Each touched tool gets its server's best tool score × the sibling share, and its server's document
   * score relative to the best server's × the server-document share × top (one pass for both).
   */
  function addServerShares(count: number, top: number, ids: readonly number[], weights: readonly number[]): void {
    const bestServer = servers !== undefined ? servers.score(ids, weights) : 0;
    const documentScale = bestServer > 0 ? (t.serverDocumentShare * top) / bestServer : 0;
    if (t.siblingShare > 0 || documentScale > 0) addServerScores(count, documentScale, servers?.scores ?? serverBest);
    servers?.reset();
  }

  /** The loop of {@link addServerShares}, a leaf of its own (see addPostings). */
  function addServerScores(count: number, documentScale: number, documentScores: Float64Array): void {
    const sibling = t.siblingShare;
    for (let c = 0; c < count; c++) {
      const d = docs[c] as number;
      const sid = serverOf[d] as number;
      if (sid >= 0)
        acc[d] = (acc[d] as number) + sibling * (serverBest[sid] as number) + documentScale * (documentScores[sid] as number);
    }
  }

  function resetServerBest(count: number): void {
    for (let c = 0; c < count; c++) {
      const sid = serverOf[docs[c] as number] as number;
      if (sid >= 0) serverBest[sid] = 0;
    }
  }

  function resetTouched(count: number): void {
    for (let c = 0; c < count; c++) {
      const d = docs[c] as number;
      acc[d] = 0;
      clauseBest[d] = 0;
      seen[d] = 0;
    }
  }

  /**
   * RM3-style pseudo-relevance feedback: the terms of the best few tools, weighted by the tool's share of
   * their score and the term's share of the tool, are added to the query (at most prfTerms of them,
   * summing to prfWeight × the query's own weight mass). Returns the new [count, best].
   */
  function feedback(q: { ids: number[]; weights: number[] }, count: number): [number, number] {
    const best = topK(count, t.prfDocs);
    let total = 0;
    for (const r of best) total += r.score;
    const gain = new Map<number, number>();
    for (const r of best) {
      let docMass = 0;
      for (let i = ix.docStart[r.doc] as number; i < (ix.docStart[r.doc + 1] as number); i++) docMass += ix.docTf[i] as number;
      for (let i = ix.docStart[r.doc] as number; i < (ix.docStart[r.doc + 1] as number); i++) {
        const term = ix.docTerms[i] as number;
        if ((qWeight[term] as number) > 0) continue;
        gain.set(term, (gain.get(term) ?? 0) + ((r.score / total) * (ix.docTf[i] as number)) / docMass);
      }
    }
    const picked = [...gain].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, t.prfTerms);
    let mass = 0;
    for (const [, g] of picked) mass += g;
    let qMass = 0;
    for (const w of q.weights) qMass += w;
    if (mass <= 0) return [count, best[0]?.score ?? 0];
    const ids = picked.map(([id]) => id);
    const weights = picked.map(([, g]) => (t.prfWeight * qMass * g) / mass);
    const [c] = accumulate({ ids, weights }, acc, count, seen);
    let top = 0;
    for (let k = 0; k < c; k++) if ((acc[docs[k] as number] as number) > top) top = acc[docs[k] as number] as number;
    return [c, top];
  }

  /**
   * Each prerequisite of the best few tools scores at least prerequisiteShare × that tool's score: the
   * model will need it first ("GetUserToken" for a request that a tool taking a token serves).
   */
  function liftPrerequisites({ start, docs: producers }: Prerequisites, count: number): number {
    for (const { doc, score } of topK(count, t.prerequisiteDepth)) {
      const lifted = t.prerequisiteShare * score;
      for (let i = start[doc] as number; i < (start[doc + 1] as number); i++) {
        const p = producers[i] as number;
        if (seen[p] === 0) {
          seen[p] = 1;
          docs[count++] = p;
        }
        if ((acc[p] as number) < lifted) acc[p] = lifted;
      }
    }
    return count;
  }

  /** A tool spelled as an identifier, or a server named by a word or 2-3 joined words, gets a bonus. */
  function mentions(words: readonly QueryWord[], identifiers: readonly string[], top: number, count: number): number {
    if (t.nameBonus > 0) count = bumpAll([...names.toolsNamed(identifiers)], t.nameBonus * top, count);
    if (t.serverBonus > 0)
      for (const sid of names.serversNamed(words)) count = bumpAll(names.membersOf(sid), t.serverBonus * top, count);
    return count;
  }

  /**
   * Adds `bonus` to each tool of `list`, marking the ones not touched yet; returns the touched count.
   * A leaf of its own: a named server's thousand tools make this loop hot, and V8 then optimises
   * only this, not the whole of `mentions` with everything it calls (6–8 ms of compilation).
   */
  function bumpAll(list: readonly number[], bonus: number, count: number): number {
    for (let i = 0; i < list.length; i++) {
      const d = list[i] as number;
      if (seen[d] === 0) {
        seen[d] = 1;
        docs[count++] = d;
      }
      acc[d] = (acc[d] as number) + bonus;
    }
    return count;
  }

  /** Best `limit` of the touched docs, ties broken by catalogue order (deterministic). */
  function topK(count: number, limit: number): RankedDoc[] {
    const out: RankedDoc[] = [];
    for (let c = 0; c < count; c++) {
      const d = docs[c] as number;
      const s = acc[d] as number;
      if (!(s > 0)) continue;
      if (out.length === limit) {
        const last = out[limit - 1] as RankedDoc;
        if (s < last.score || (s === last.score && d > last.doc)) continue;
      }
      let j = out.length < limit ? out.length : limit - 1;
      if (out.length < limit) out.push({ doc: d, score: s });
      while (j > 0) {
        const prev = out[j - 1] as RankedDoc;
        if (prev.score > s || (prev.score === s && prev.doc < d)) break;
        out[j] = prev;
        j--;
      }
      out[j] = { doc: d, score: s };
    }
    return out;
  }

  function prepare(): void {
    unknown.prepare();
    names.prepare();
  }

  return { rank, index: ix, unknown, prepare, links: found };
}
