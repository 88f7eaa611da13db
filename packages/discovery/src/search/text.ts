/**
 * Text normalisation shared by the index and the queries: identifier splitting (camelCase, snake_case,
 * kebab-case, dots, letter/digit boundaries), diacritic folding, stop words and a light suffix stemmer.
 * Everything here is deterministic and language-generic (English morphology only in the stemmer).
 */

import { SPAN, scanWordSpans, wordSpans } from './word-spans.js';

const NON_ASCII = /[^\x00-\x7f]/;

// Common English function words and request phrasing ("can you", "please", "I want"). Verbs that name
// tool actions (get, list, find, search, create...) are deliberately NOT stop words: they often are the
// only thing that tells two tools of one server apart.
const STOP_WORDS = new Set(
  (
    'a an and are as at be been being by can could do does did for from has have had how i i\'m im in into is it its ' +
    'me my mine of on or our ours please should so that the their them then there these this those to us was were we ' +
    'what when where which who whom whose will with would you your yours also about any some want wants wanted ' +
    'need needs like know let lets tell give provide am just very much many more most other another each ' +
    'than too can\'t don\'t doesn\'t it\'s i\'d i\'ll could\'ve thank thanks hi hello kindly us may might must shall ' +
    'if but not no yes all both either neither only own same such up down out over under again further once here'
  ).split(' '),
);

/** True when `token` (lower case) is a stop word. */
export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}

/** Lower-cases and folds diacritics ("Pokémon" → "pokemon"). */
export function foldCase(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

/** Folds diacritics ("Pokémon" → "Pokemon"); case is kept. ASCII text is returned as is. */
export function foldDiacritics(text: string): string {
  return NON_ASCII.test(text) ? text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : text;
}

/**
 * Splits text into raw lower-case word pieces: identifiers are broken at case changes, underscores,
 * hyphens, dots and letter/digit boundaries ("getHTTPResponse_v2" → get http response v 2).
 */
export function splitWords(text: string): string[] {
  const src = foldDiacritics(text);
  // Lower-case once; slices are taken from this copy (same length: ASCII, or folded and re-checked).
  const lower = src.toLowerCase();
  const low = lower.length === src.length ? lower : undefined;
  const count = scanWordSpans(src);
  const spans = wordSpans();
  const out: string[] = new Array(count);
  for (let k = 0; k < count; k++) {
    const start = spans[SPAN * k] as number;
    const end = spans[SPAN * k + 1] as number;
    out[k] = low ? low.slice(start, end) : src.slice(start, end).toLowerCase();
  }
  return out;
}

/**
 * Identifiers in text that split into several words ("get_weather", "WhoIS", "listRepos"), each
 * lower-cased with separators removed ("getweather", "whois", "listrepos"), without duplicates.
 */
export function compoundIdentifiers(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}_.\-]*/gu)) {
    // Only tokens with a separator or an inner capital can be compound; skip plain words cheaply.
    if (!/[_.\-]|.\p{Lu}/u.test(m[0])) continue;
    const pieces = splitWords(m[0]);
    if (pieces.length > 1) out.add(pieces.join(''));
  }
  return [...out];
}

/** Removes separators and folds case, for comparing whole names ("GitHub_API" → "githubapi"). */
export function compact(text: string): string {
  const folded = foldCase(text);
  return NON_ASCII.test(folded) ? folded.replace(/[^\p{L}\p{N}]/gu, '') : folded.replace(/[^a-z0-9]/g, '');
}

const VOWEL = /[aeiouy]/;

function undouble(stem: string): string {
  const n = stem.length;
  if (n >= 3 && stem[n - 1] === stem[n - 2] && !'lsz'.includes(stem[n - 1] as string)) return stem.slice(0, -1);
  return stem;
}

/**
 * A light, conservative English suffix stemmer: plurals, -ing, -ed, -ation/-ator and a final -e,
 * so that "creates", "created", "creating", "creation" and "creator" all become "creat".
 * Short words (≤ 3 letters) and tokens with digits are left alone.
 */
export function stem(word: string): string {
  let cached = STEM_CACHE.get(word);
  if (cached === undefined) {
    cached = stemUncached(word);
    if (STEM_CACHE.size >= STEM_CACHE_MAX) STEM_CACHE.clear();
    STEM_CACHE.set(word, cached);
  }
  return cached;
}

// Stemming is a chain of regex tests; words repeat a lot across tools and queries.
const STEM_CACHE = new Map<string, string>();
const STEM_CACHE_MAX = 200_000;

function stemUncached(word: string): string {
  let w = word;
  if (w.length <= 3 || /[0-9]/.test(w)) return w;
  // Plurals.
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(?:x|ch|sh|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  // Verb forms.
  if (w.endsWith('ing') && w.length > 5 && VOWEL.test(w.slice(0, -3))) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ied') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('ed') && w.length > 4 && VOWEL.test(w.slice(0, -2))) w = undouble(w.slice(0, -2));
  // Derivations that point to the same action.
  if (w.endsWith('ation') && w.length > 7) w = w.slice(0, -3);
  else if (w.endsWith('ator') && w.length > 6) w = w.slice(0, -2);
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** Split, drop stop words, stem. The shared path for index fields and queries. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of splitWords(text)) {
    if (STOP_WORDS.has(word)) continue;
    out.push(stem(word));
  }
  return out;
}

// Sentence ends and connectives that start a new request inside one query ("..., and also list ...",
// "Additionally, ..."). "and" is included: "the DNS records and the Whois details" asks for two tools.
const CLAUSE_BREAK = /[.?!;\n]+(?:\s|$)|\b(?:and|also|additionally|furthermore|moreover|then|besides|plus)\b/gi;

/** Splits a request into its parts at sentence ends and connectives ("and", "also", "additionally", ...). */
export function splitClauses(text: string): string[] {
  return text
    .split(CLAUSE_BREAK)
    .map((c) => c.trim())
    .filter((c) => /[\p{L}\p{N}]/u.test(c));
}

/** A query word and how much it counts. */
export interface QueryWord {
  /** Lower-case word piece, as from {@link splitWords}. */
  word: string;
  /** 1, or less for words inside quotes. */
  weight: number;
}

// A quoted span: the opening quote follows start/space/punctuation, the closing one precedes
// space/punctuation/end, so apostrophes ("I'm", "Messi's") are not taken for quotes.
const QUOTED = /(^|[\s([{:,=])(["'\u2018\u201c`])([^"'\u2019\u201d`\n]{1,200}?)(["'\u2019\u201d`])(?=$|[\s)\]}.,;:!?])/g;

/** Query words, with words inside quotes weighted by `quotedWeight`. */
export function queryWords(text: string, quotedWeight: number): QueryWord[] {
  const out: QueryWord[] = [];
  const push = (part: string, weight: number): void => {
    for (const word of splitWords(part)) out.push({ word, weight });
  };
  let last = 0;
  if (quotedWeight !== 1) {
    for (const m of text.matchAll(QUOTED)) {
      const start = (m.index ?? 0) + (m[1] as string).length;
      push(text.slice(last, start), 1);
      push(m[3] as string, quotedWeight);
      last = start + (m[0].length - (m[1] as string).length);
    }
  }
  push(text.slice(last), 1);
  return out;
}

/** A query split into clauses, each a list of weighted words. */
export interface ParsedQuery {
  /** All words, in order (connectives that separate clauses are dropped). */
  words: QueryWord[];
  /** The words of each clause (see {@link splitClauses}). */
  clauses: QueryWord[][];
}

/** Tokenises a query once for both the whole-query and the per-clause ranking. */
export function parseQuery(text: string, quotedWeight: number): ParsedQuery {
  const clauses = splitClauses(text).map((c) => queryWords(c, quotedWeight));
  return { words: clauses.flat(), clauses };
}
