import { COMMON_ENGLISH_WORDS } from './common-words-data.js';
import { isStopWord, type QueryWord } from './text.js';

// Key concepts of a long request are its rare words: "quick", "hard numbers" and "next week" say less
// about which tool is wanted than "candlesticks" and "USDT" (Bendersky & Croft, "Discovering key
// concepts in verbose queries", SIGIR 2008, use web frequency as one of their signals). The catalogue's
// idf cannot tell: a general word that few tool descriptions use ("two", "people", "week") looks as
// specific as a technical one. So each query word among the 10,000 most frequent English words of a web corpus
// is discounted by its rank, the more the longer the request: a short request has few words, and each
// of them is likely to matter.

let ranks: Map<string, number> | undefined;

/** Reads the word table (once per process); index builds call it so that no query pays for it. */
export function loadCommonWords(): Map<string, number> {
  if (ranks === undefined) {
    ranks = new Map();
    let rank = 0;
    for (const w of COMMON_ENGLISH_WORDS.split(' ')) ranks.set(w, ++rank);
  }
  return ranks;
}

/** 1-based frequency rank of a lower-case word among the 10,000 most frequent English words, or 0. */
export function commonWordRank(word: string): number {
  return loadCommonWords().get(word) ?? 0;
}

const LOG_LIST = Math.log(10_001);

/**
 * Multiplies the weight of each common English word of a request by (ln(rank + 1) / ln 10,001)^e,
 * e = `exponent` × n / (n + `halfLength`), n = the request's content words (stop words left out).
 * The same word objects appear in the whole request and in its clauses, so both see the discount.
 */
export function discountCommonWords(clauseWords: readonly QueryWord[][], exponent: number, halfLength: number): void {
  if (!(exponent > 0)) return;
  let n = 0;
  for (const words of clauseWords) for (const { word } of words) if (!isStopWord(word)) n++;
  if (n === 0) return;
  const e = (exponent * n) / (n + halfLength);
  for (const words of clauseWords)
    for (const w of words) {
      const rank = commonWordRank(w.word);
      if (rank > 0) w.weight *= Math.pow(Math.log(rank + 1) / LOG_LIST, e);
    }
}
