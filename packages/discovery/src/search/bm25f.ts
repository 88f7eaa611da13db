import { FIELD_COUNT, tokenizeTools, type ToolTerms, Vocabulary } from './tool-terms.js';
import type { RegexDocument } from './regex-search.js';

export { FIELD_COUNT } from './tool-terms.js';

/** BM25F parameters. */
export interface Bm25fParams {
  /** Term-frequency saturation. */
  k1: number;
  /** Field weights: name, server, description, parameters, example values. */
  fieldWeights: readonly number[];
  /** Length normalization (BM25 b) per field, same order. */
  fieldB: readonly number[];
  /** Weight, relative to the name field, of the pieces of run-together name words ("searchjobs" → search, jobs); 0 = off. */
  namePieces: number;
  /** BM25+ lower bound (Lv & Zhai 2011): idf × delta added for every matched term; 0 = plain BM25. */
  delta: number;
}

/**
 * A BM25F index over the five fields of each tool (Robertson & Zaragoza's form: field term counts are
 * length-normalized per field, weighted, summed, then saturated once). Impacts (idf × saturated tf)
 * are precomputed per posting in compressed sparse rows, so a query is a sum over posting lists.
 */
export interface Bm25fIndex {
  /** Number of tools. */
  n: number;
  /** Stemmed term → term id. */
  vocab: Map<string, number>;
  /** Term text by id. */
  terms: string[];
  /** Raw (unstemmed) catalogue word → term id, or -1 for a stop word (for splitting run-together words). */
  wordIds: Map<string, number>;
  /** The words behind `vocab`, `terms` and `wordIds` (copied, then extended, by a derived index). */
  vocabulary: Vocabulary;
  /** Term ids per tool, reused by a derived index for the tools it keeps. */
  tools: ToolTerms[];
  /** Inverse document frequency by term id. */
  idf: Float64Array;
  /** Postings of term t are [postStart[t], postStart[t + 1]). */
  postStart: Int32Array;
  postDoc: Int32Array;
  postImpact: Float64Array;
  /** Name terms of tool d are nameTerms[nameStart[d] .. nameStart[d + 1]) (distinct). */
  nameStart: Int32Array;
  nameTerms: Int32Array;
  /** Σ idf of a tool's distinct name terms. */
  nameMass: Float64Array;
  /** Forward index: terms of tool d are docTerms[docStart[d] .. docStart[d + 1]), with their weighted tf. */
  docStart: Int32Array;
  docTerms: Int32Array;
  docTf: Float64Array;
}

/** Indexes the tools' texts (names already validated). */
export function buildBm25f(docs: readonly RegexDocument[], p: Bm25fParams): Bm25fIndex {
  const vocabulary = new Vocabulary();
  return assembleBm25f(tokenizeTools(docs, vocabulary, p.namePieces > 0), vocabulary, p);
}

/**
 * The index over tools already tokenized: field lengths, pseudo term frequencies, idf, postings. This
 * is all a derived index (`replaceServer`) recomputes for the tools it keeps; no text is read again.
 */
export function assembleBm25f(tools: readonly ToolTerms[], vocabulary: Vocabulary, p: Bm25fParams): Bm25fIndex {
  const n = tools.length;
  const { vocab, terms, wordIds } = vocabulary;
  const lengthSum = new Float64Array(FIELD_COUNT);
  let tokenCount = 0;
  for (const tool of tools) {
    let start = 0;
    for (let f = 0; f < FIELD_COUNT; f++) {
      const end = tool.fieldEnd[f] as number;
      lengthSum[f] = (lengthSum[f] as number) + end - start;
      start = end;
    }
    tokenCount += tool.tokens.length + tool.pieces.length;
  }
  const V = terms.length;

  // Pass 2: pseudo term frequency per (tool, term), document frequencies.
  const norm = new Float64Array(FIELD_COUNT);
  const avg = Array.from(lengthSum, (sum) => (n > 0 ? sum / n : 0));
  const tf = new Float64Array(V);
  const touched: number[] = [];
  // At most one posting per token: sized once.
  const out = new Postings(tokenCount);
  const df = new Int32Array(V);
  for (let d = 0; d < n; d++) {
    const { tokens, fieldEnd, pieces } = tools[d] as ToolTerms;
    let start = 0;
    for (let f = 0; f < FIELD_COUNT; f++) {
      const end = fieldEnd[f] as number;
      const b = p.fieldB[f] as number;
      const a = avg[f] as number;
      norm[f] = (p.fieldWeights[f] as number) / (a > 0 ? 1 - b + (b * (end - start)) / a : 1);
      // A field of weight 0 is off: its words make no posting (BM25+ would give each one δ × idf).
      if (norm[f] !== 0)
        for (let i = start; i < end; i++) {
          const id = tokens[i] as number;
          if (tf[id] === 0) touched.push(id);
          tf[id] = (tf[id] as number) + (norm[f] as number);
        }
      if (f === 0) {
        for (let i = 0; i < pieces.length; i++) {
          const id = pieces[i] as number;
          if (tf[id] === 0) touched.push(id);
          tf[id] = (tf[id] as number) + (norm[0] as number) * p.namePieces;
        }
      }
      start = end;
    }
    out.flush(d, touched, tf, df);
  }
  const { term: pTerm, group: pDoc, tf: pTf, count: np } = out;
  const idf = new Float64Array(V);
  for (let t = 0; t < V; t++) idf[t] = bm25Idf(n, df[t] as number);

  // Compressed sparse rows by term (docs stay ascending within a term).
  const { start: postStart, slot } = termRows(pTerm, np, df);
  const postDoc = new Int32Array(np);
  const postImpact = new Float64Array(np);
  const k1 = p.k1;
  const delta = p.delta;
  for (let i = 0; i < np; i++) {
    const t = pTerm[i] as number;
    const at = slot[i] as number;
    const x = pTf[i] as number;
    postDoc[at] = pDoc[i] as number;
    postImpact[at] = (idf[t] as number) * ((x * (k1 + 1)) / (x + k1) + delta);
  }

  // Distinct name terms per tool, and their idf mass (for the name-coverage bonus).
  const nameStart = new Int32Array(n + 1);
  const nameList: number[] = [];
  const nameMass = new Float64Array(n);
  for (let d = 0; d < n; d++) {
    const start = nameList.length;
    const { tokens, fieldEnd } = tools[d] as ToolTerms;
    for (let i = 0; i < (fieldEnd[0] as number); i++) {
      const id = tokens[i] as number;
      if (nameList.indexOf(id, start) >= 0) continue;
      nameList.push(id);
      nameMass[d] = (nameMass[d] as number) + (idf[id] as number);
    }
    nameStart[d + 1] = nameList.length;
  }
  // Postings were emitted in tool order, so they already are the forward index.
  const docStart = new Int32Array(n + 1);
  for (let i = 0; i < np; i++) docStart[(pDoc[i] as number) + 1] = (docStart[(pDoc[i] as number) + 1] as number) + 1;
  for (let d = 0; d < n; d++) docStart[d + 1] = (docStart[d + 1] as number) + (docStart[d] as number);
  return {
    n,
    vocab,
    terms,
    wordIds,
    vocabulary,
    tools: tools as ToolTerms[],
    idf,
    postStart,
    postDoc,
    postImpact,
    nameStart,
    nameTerms: Int32Array.from(nameList),
    nameMass,
    docStart,
    docTerms: pTerm.subarray(0, np),
    docTf: pTf.subarray(0, np),
  };
}

/** Tools by name term: tools of term t are docs[start[t] .. start[t + 1]), ascending. */
export function invertNameTerms(ix: Bm25fIndex): { start: Int32Array; docs: Int32Array } {
  const start = new Int32Array(ix.terms.length + 1);
  for (let j = 0; j < ix.nameTerms.length; j++) {
    const at = (ix.nameTerms[j] as number) + 1;
    start[at] = (start[at] as number) + 1;
  }
  for (let t = 0; t < ix.terms.length; t++) start[t + 1] = (start[t + 1] as number) + (start[t] as number);
  const fill = start.slice(0, ix.terms.length);
  const docs = new Int32Array(ix.nameTerms.length);
  for (let d = 0; d < ix.n; d++)
    for (let j = ix.nameStart[d] as number; j < (ix.nameStart[d + 1] as number); j++) {
      const term = ix.nameTerms[j] as number;
      docs[fill[term] as number] = d;
      fill[term] = (fill[term] as number) + 1;
    }
  return { start, docs };
}

/** BM25's idf of a term found in `df` of `total` documents (Robertson–Spärck Jones, kept positive). */
export function bm25Idf(total: number, df: number): number {
  return Math.log(1 + (total - df + 0.5) / (df + 0.5));
}

/**
 * Counting sort of postings into compressed sparse rows by term: rows of term t are
 * [start[t], start[t + 1]), and posting i (term `terms[i]`, i < count) goes to `slot[i]`, so postings
 * keep their order within a term. `df[t]` is the number of postings of term t.
 */
export function termRows(terms: Int32Array, count: number, df: Int32Array): { start: Int32Array; slot: Int32Array } {
  const V = df.length;
  const start = new Int32Array(V + 1);
  for (let t = 0; t < V; t++) start[t + 1] = (start[t] as number) + (df[t] as number);
  const fill = start.slice(0, V);
  const slot = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const t = terms[i] as number;
    slot[i] = fill[t] as number;
    fill[t] = (slot[i] as number) + 1;
  }
  return { start, slot };
}

/**
 * Postings emitted group by group (a tool, or a server's tools): the summed weight of each term a
 * group touched becomes one (term, group, tf) posting, in group order.
 */
export class Postings {
  readonly term: Int32Array;
  readonly group: Int32Array;
  readonly tf: Float64Array;
  count = 0;

  /** At most `capacity` postings in all. */
  constructor(capacity: number) {
    this.term = new Int32Array(capacity);
    this.group = new Int32Array(capacity);
    this.tf = new Float64Array(capacity);
  }

  /** One posting per term of `touched` with its sum in `sums`; counts it in `df`, zeroes `sums`, empties `touched`. */
  flush(group: number, touched: number[], sums: Float64Array, df: Int32Array): void {
    for (const t of touched) {
      this.term[this.count] = t;
      this.group[this.count] = group;
      this.tf[this.count++] = sums[t] as number;
      df[t] = (df[t] as number) + 1;
      sums[t] = 0;
    }
    touched.length = 0;
  }
}
