import { type Bm25fIndex, bm25Idf, Postings, termRows } from './bm25f.js';
import type { CatalogueNames } from './names.js';

/**
 * Each server's tools read as one document, scored with BM25 over the catalogue's servers: the
 * cluster-based evidence of Liu & Croft ("Cluster-based retrieval using language models", SIGIR 2004),
 * with the server as the cluster. A request's words are often spread over the tools of the server that
 * serves it ("transcribe the audio of a meeting": one tool transcribes, another loads audio, a third
 * names meetings), so the server as a whole matches better than any one of its tools. The sibling share
 * sees only the best single sibling; this sees the union of their words.
 */
export interface ServerDocuments {
  /** Scores the servers for a query's term ids and weights; returns the best server score (0 = none). */
  score(ids: readonly number[], weights: readonly number[]): number;
  /** Score of each server (by server id) from the last {@link score} call; 0 where it matched nothing. */
  readonly scores: Float64Array;
  /** Clears the scores of the last {@link score} call. */
  reset(): void;
}

/** BM25 parameters of the server documents. */
export interface ServerDocumentParams {
  /** Term-frequency saturation: a server is many tools, so repeated evidence saturates later than in one tool. */
  k1: number;
  /** Length normalization over server lengths. */
  b: number;
}

/**
 * Builds the server documents from the tool index's forward index (pseudo term frequencies, already
 * field-weighted and length-normalized per tool), so no text is read again. Undefined with fewer than
 * two servers: one server's score is the same for every tool and ranks nothing.
 */
export function buildServerDocuments(
  ix: Bm25fIndex,
  names: CatalogueNames,
  p: ServerDocumentParams,
): ServerDocuments | undefined {
  const S = names.serverCount;
  if (S < 2) return undefined;
  const V = ix.terms.length;
  const { docStart, docTerms, docTf } = ix;

  // Pass 1, server by server: summed term frequencies, emitted as (term, server, tf) triples.
  const out = new Postings(docTerms.length);
  const tf = new Float64Array(V);
  const touched: number[] = [];
  const length = new Float64Array(S);
  const df = new Int32Array(V);
  for (let sid = 0; sid < S; sid++) {
    for (const d of names.membersOf(sid)) {
      for (let i = docStart[d] as number; i < (docStart[d + 1] as number); i++) {
        const term = docTerms[i] as number;
        if (tf[term] === 0) touched.push(term);
        tf[term] = (tf[term] as number) + (docTf[i] as number);
        length[sid] = (length[sid] as number) + (docTf[i] as number);
      }
    }
    out.flush(sid, touched, tf, df);
  }
  const { term: tTerm, group: tServer, tf: tTf, count: nt } = out;
  let avg = 0;
  for (let sid = 0; sid < S; sid++) avg += (length[sid] as number) / S;

  // Pass 2: compressed sparse rows by term, with precomputed impacts (idf over servers × saturated tf).
  const { start, slot } = termRows(tTerm, nt, df);
  const postServer = new Int32Array(nt);
  const postImpact = new Float64Array(nt);
  const { k1, b } = p;
  for (let i = 0; i < nt; i++) {
    const t = tTerm[i] as number;
    const sid = tServer[i] as number;
    const at = slot[i] as number;
    const idf = bm25Idf(S, df[t] as number);
    const x = (tTf[i] as number) / (avg > 0 ? 1 - b + (b * (length[sid] as number)) / avg : 1);
    postServer[at] = sid;
    postImpact[at] = (idf * (x * (k1 + 1))) / (x + k1);
  }

  const scores = new Float64Array(S);
  // Reset clears the whole array: a memset of S doubles costs microseconds even at 10,000 servers,
  // less than tracking which servers each posting touched.
  let dirty = false;
  return {
    score(ids, weights) {
      dirty = true;
      let best = 0;
      for (let k = 0; k < ids.length; k++) {
        const id = ids[k] as number;
        const w = weights[k] as number;
        for (let i = start[id] as number; i < (start[id + 1] as number); i++) {
          const sid = postServer[i] as number;
          const v = (scores[sid] as number) + w * (postImpact[i] as number);
          scores[sid] = v;
          if (v > best) best = v;
        }
      }
      return best;
    },
    scores,
    reset() {
      if (dirty) scores.fill(0);
      dirty = false;
    },
  };
}
