import type { CatalogTokens } from './catalog-tokens.js';
import { F_NAME, FIELDS } from './fields.js';
import type { NameSegments } from './name-segments.js';

/** CSR postings with precomputed BM25F impacts: the docs of term v are postDoc[postStart[v] .. postStart[v + 1]]. */
export interface Postings {
  idf: Float64Array;
  postStart: Int32Array;
  postDoc: Int32Array;
  postImpact: Float32Array;
}

/** BM25F parameters the impacts depend on (see ToolIndexTuning). */
export interface PostingsParams {
  k1: number;
  fieldWeights: readonly number[];
  fieldB: readonly number[];
}

/**
 * Document frequencies (a term counts once per tool), then postings with their BM25F impacts,
 * written in place. Split name words (`extra`) count once per tool, at name weight.
 */
export function buildPostings(cat: CatalogTokens, extra: NameSegments, p: PostingsParams): Postings {
  const { tokTerm, tokField, docStart, fieldLen } = cat;
  const n = cat.names.length;
  const V = cat.vocabTerms.length;
  const extraDoc = extra.doc;
  const extraTerm = extra.term;
  const df = new Int32Array(V);
  const lastDoc = new Int32Array(V).fill(-1);
  let extraAt = 0;
  for (let d = 0; d < n; d++) {
    const end = docStart[d + 1] as number;
    for (let i = docStart[d] as number; i < end; i++) {
      const term = tokTerm[i] as number;
      if (lastDoc[term] !== d) {
        lastDoc[term] = d;
        df[term] = (df[term] as number) + 1;
      }
    }
    for (; extraAt < extraDoc.length && extraDoc[extraAt] === d; extraAt++) {
      const term = extraTerm[extraAt] as number;
      if (lastDoc[term] !== d) {
        lastDoc[term] = d;
        df[term] = (df[term] as number) + 1;
      }
    }
  }
  const idf = new Float64Array(V);
  for (let v = 0; v < V; v++) idf[v] = Math.log(1 + (n - (df[v] as number) + 0.5) / ((df[v] as number) + 0.5));
  const postStart = new Int32Array(V + 1);
  for (let v = 0; v < V; v++) postStart[v + 1] = (postStart[v] as number) + (df[v] as number);
  const fill = postStart.slice(0, V);
  const postDoc = new Int32Array(postStart[V] as number);
  const postImpact = new Float32Array(postStart[V] as number);

  const avgLen = fieldLen.map((lens) => {
    let s = 0;
    for (let d = 0; d < n; d++) s += lens[d] as number;
    return n > 0 ? s / n || 1 : 1;
  });
  const scratch = new Float64Array(V);
  const touched = new Int32Array(V);
  const norm = new Float64Array(FIELDS);
  const nameW = p.fieldWeights[F_NAME] as number;
  const k1 = p.k1;
  extraAt = 0;
  for (let d = 0; d < n; d++) {
    for (let f = 0; f < FIELDS; f++) {
      const b = p.fieldB[f] as number;
      norm[f] = (p.fieldWeights[f] as number) / (1 - b + (b * ((fieldLen[f] as Float64Array)[d] as number)) / (avgLen[f] as number));
    }
    let nt = 0;
    const end = docStart[d + 1] as number;
    for (let i = docStart[d] as number; i < end; i++) {
      const term = tokTerm[i] as number;
      if (scratch[term] === 0) touched[nt++] = term;
      scratch[term] = (scratch[term] as number) + (norm[tokField[i] as number] as number);
    }
    for (; extraAt < extraDoc.length && extraDoc[extraAt] === d; extraAt++) {
      const term = extraTerm[extraAt] as number;
      if (scratch[term] === 0) touched[nt++] = term;
      // A segmented piece is a guess: it counts once, at name weight, with no length normalisation.
      scratch[term] = Math.max(scratch[term] as number, nameW);
    }
    for (let j = 0; j < nt; j++) {
      const term = touched[j] as number;
      const tf = scratch[term] as number;
      scratch[term] = 0;
      const at = fill[term] as number;
      fill[term] = at + 1;
      postDoc[at] = d;
      postImpact[at] = ((idf[term] as number) * tf * (k1 + 1)) / (tf + k1);
    }
  }
  return { idf, postStart, postDoc, postImpact };
}

/** Each tool's distinct name terms (nameTermList[nameStart[d] .. nameStart[d + 1]]) and their idf mass. */
export interface NameTerms {
  nameStart: Int32Array;
  nameTermList: Int32Array;
  nameMass: Float64Array;
}

/** Name terms per tool, for the name-coverage bonus. Name tokens come first in each tool's tokens. */
export function nameTerms(cat: CatalogTokens, idf: Float64Array): NameTerms {
  const { tokTerm, tokField, docStart } = cat;
  const n = cat.names.length;
  const nameLen = cat.fieldLen[F_NAME] as Float64Array;
  let nameTokens = 0;
  for (let d = 0; d < n; d++) nameTokens += nameLen[d] as number;
  const nameStart = new Int32Array(n + 1);
  const nameTermList = new Int32Array(nameTokens);
  const nameMass = new Float64Array(n);
  const lastDoc = new Int32Array(cat.vocabTerms.length).fill(-1);
  let count = 0;
  for (let d = 0; d < n; d++) {
    nameStart[d] = count;
    const end = docStart[d + 1] as number;
    for (let i = docStart[d] as number; i < end && tokField[i] === F_NAME; i++) {
      const term = tokTerm[i] as number;
      if (lastDoc[term] === d) continue;
      lastDoc[term] = d;
      nameTermList[count++] = term;
      nameMass[d] = (nameMass[d] as number) + (idf[term] as number);
    }
  }
  nameStart[n] = count;
  return { nameStart, nameTermList, nameMass };
}
