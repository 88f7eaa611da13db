import type { RegexDocument } from './regex-search.js';
import { forEachWord, isStopWord, stem } from './text.js';
import { splitRunTogether } from './unknown-words.js';

/** Fields of a tool, in this order: name, server, description, parameter names + descriptions. */
export const FIELD_COUNT = 4;

/** BM25F parameters. */
export interface Bm25fParams {
  /** Term-frequency saturation. */
  k1: number;
  /** Field weights: name, server, description, parameters. */
  fieldWeights: readonly number[];
  /** Length normalization (BM25 b) per field, same order. */
  fieldB: readonly number[];
  /** Weight, relative to the name field, of the pieces of run-together name words ("searchjobs" → search, jobs); 0 = off. */
  namePieces: number;
}

// Run-together name words shorter than this are left alone: short words split into short pieces by chance.
const MIN_SPLIT_NAME_WORD = 7;

/**
 * A BM25F index over the four fields of each tool (Robertson & Zaragoza's form: field term counts are
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
  const n = docs.length;
  const vocab = new Map<string, number>();
  const terms: string[] = [];
  // One lookup per token: raw word → term id (stemming and stop words resolved once per distinct word).
  const wordIds = new Map<string, number>();
  const idOf = (word: string): number => {
    let id = wordIds.get(word);
    if (id !== undefined) return id;
    if (isStopWord(word)) id = -1;
    else {
      const s = stem(word);
      id = vocab.get(s);
      if (id === undefined) {
        id = terms.length;
        vocab.set(s, id);
        terms.push(s);
      }
    }
    wordIds.set(word, id);
    return id;
  };
  const isWord = (w: string): boolean => (wordIds.get(w) ?? -1) >= 0;
  // Pass 1: term ids per field, flat; fieldStart[d * F + f] is where field f of tool d starts.
  // Term ids of every field of every tool, in one growable typed array (no per-token boxing or GC).
  let tokens = new Int32Array(1 << 16);
  let tokenCount = 0;
  const pushToken = (id: number): void => {
    if (tokenCount === tokens.length) {
      const grown = new Int32Array(tokens.length * 2);
      grown.set(tokens);
      tokens = grown;
    }
    tokens[tokenCount++] = id;
  };
  const fieldStart = new Int32Array(n * FIELD_COUNT + 1);
  const lengthSum = new Float64Array(FIELD_COUNT);
  const longNameWords: string[][] = [];
  let longWords: string[] | undefined;
  const addWord = (word: string): void => {
    const id = idOf(word);
    if (id < 0) return;
    pushToken(id);
    if (longWords && word.length >= MIN_SPLIT_NAME_WORD) longWords.push(word);
  };
  const addText = (text: string, long?: string[]): void => {
    longWords = long;
    forEachWord(text, addWord);
  };
  for (let d = 0; d < n; d++) {
    const e = docs[d] as RegexDocument;
    const fields = [e.name, e.server, e.description, e.params];
    for (let f = 0; f < FIELD_COUNT; f++) {
      const start = tokenCount;
      fieldStart[d * FIELD_COUNT + f] = start;
      if (f === 0) longNameWords.push([]);
      addText(typeof fields[f] === 'string' ? (fields[f] as string) : '', f === 0 ? (longNameWords[d] as string[]) : undefined);
      lengthSum[f] = (lengthSum[f] as number) + tokenCount - start;
    }
  }
  fieldStart[n * FIELD_COUNT] = tokenCount;
  // Run-together name words ("searchjobs", "getuserprofile") split into words the catalogue uses.
  const pieceStart = new Int32Array(n + 1);
  const pieces: number[] = [];
  // Long name words repeat across tools ("getuserprofile" in many servers): split each once.
  const splits = new Map<string, number[]>();
  const piecesOf = (word: string): number[] => {
    let ids = splits.get(word);
    if (ids === undefined) {
      ids = [];
      for (const piece of splitRunTogether(word, isWord) ?? []) {
        const id = vocab.get(stem(piece));
        if (id !== undefined && !isStopWord(piece)) ids.push(id);
      }
      splits.set(word, ids);
    }
    return ids;
  };
  for (let d = 0; d < n; d++) {
    if (p.namePieces > 0) for (const word of longNameWords[d] as string[]) for (const id of piecesOf(word)) pieces.push(id);
    pieceStart[d + 1] = pieces.length;
  }
  const V = terms.length;

  // Pass 2: pseudo term frequency per (tool, term), document frequencies.
  const norm = new Float64Array(FIELD_COUNT);
  const avg = Array.from(lengthSum, (s) => (n > 0 ? s / n : 0));
  const tf = new Float64Array(V);
  const touched: number[] = [];
  // At most one posting per token: sized once.
  const maxPostings = tokenCount + pieces.length;
  const pTerm = new Int32Array(maxPostings);
  const pDoc = new Int32Array(maxPostings);
  const pTf = new Float64Array(maxPostings);
  let np = 0;
  const df = new Int32Array(V);
  for (let d = 0; d < n; d++) {
    for (let f = 0; f < FIELD_COUNT; f++) {
      const start = fieldStart[d * FIELD_COUNT + f] as number;
      const end = fieldStart[d * FIELD_COUNT + f + 1] as number;
      const b = p.fieldB[f] as number;
      const a = avg[f] as number;
      norm[f] = (p.fieldWeights[f] as number) / (a > 0 ? 1 - b + (b * (end - start)) / a : 1);
      for (let i = start; i < end; i++) {
        const id = tokens[i] as number;
        if (tf[id] === 0) touched.push(id);
        tf[id] = (tf[id] as number) + (norm[f] as number);
      }
      if (f === 0) {
        for (let i = pieceStart[d] as number; i < (pieceStart[d + 1] as number); i++) {
          const id = pieces[i] as number;
          if (tf[id] === 0) touched.push(id);
          tf[id] = (tf[id] as number) + (norm[0] as number) * p.namePieces;
        }
      }
    }
    for (const id of touched) {
      pTerm[np] = id;
      pDoc[np] = d;
      pTf[np++] = tf[id] as number;
      df[id] = (df[id] as number) + 1;
      tf[id] = 0;
    }
    touched.length = 0;
  }
  const idf = new Float64Array(V);
  for (let t = 0; t < V; t++) idf[t] = Math.log(1 + (n - (df[t] as number) + 0.5) / ((df[t] as number) + 0.5));

  // Compressed sparse rows by term (counting sort; docs stay ascending within a term).
  const postStart = new Int32Array(V + 1);
  for (let t = 0; t < V; t++) postStart[t + 1] = (postStart[t] as number) + (df[t] as number);
  const fill = postStart.slice(0, V);
  const postDoc = new Int32Array(np);
  const postImpact = new Float64Array(np);
  const k1 = p.k1;
  for (let i = 0; i < np; i++) {
    const t = pTerm[i] as number;
    const at = fill[t] as number;
    fill[t] = at + 1;
    const x = pTf[i] as number;
    postDoc[at] = pDoc[i] as number;
    postImpact[at] = ((idf[t] as number) * x * (k1 + 1)) / (x + k1);
  }

  // Distinct name terms per tool, and their idf mass (for the name-coverage bonus).
  const nameStart = new Int32Array(n + 1);
  const nameList: number[] = [];
  const nameMass = new Float64Array(n);
  for (let d = 0; d < n; d++) {
    const start = nameList.length;
    for (let i = fieldStart[d * FIELD_COUNT] as number; i < (fieldStart[d * FIELD_COUNT + 1] as number); i++) {
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
