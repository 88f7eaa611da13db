/**
 * Text normalization shared by the index and the queries: identifier splitting (camelCase, snake_case,
 * kebab-case, dots, letter/digit boundaries), diacritic folding, English stop words and the Porter
 * stemmer (the maintained `stemmer` package). Deterministic and independent of any catalogue.
 */
import { stemmer } from 'stemmer';

const NON_ASCII = /[^\x00-\x7f]/;

// The one word list of the engine: general English function words plus the politeness of a request
// ("please", "thanks"). It is not fitted to any data set; it only keeps words that say nothing about
// what a tool does out of the score. Action verbs (get, list, find, search, create...) are NOT stop
// words: they are often the only thing that tells two tools of one server apart.
const STOP_WORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our ours please should so than that the their them then there these they this those to ' +
    'us was we were what when where which who whom whose will with would you your yours also about any some ' +
    'am just very much many more most other each too thank thanks hi hello kindly may might must shall ' +
    'all both only own same such again further once here s t d ll m re ve'
  ).split(' '),
);

/** True when `word` (lower case) is a stop word. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** Folds diacritics ("Pokémon" → "Pokemon"); ASCII text is returned as is. */
export function foldDiacritics(text: string): string {
  return NON_ASCII.test(text) ? text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : text;
}

// A run of letters/digits; split below at case changes and letter/digit boundaries.
const TOKEN = /[\p{L}\p{N}]+/gu;
// Boundaries inside a token: "getHTTPResponse2" → get | HTTP | Response | 2.
const INNER = /\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})|\p{N}+|[\p{L}\p{M}]+/gu;

/**
 * Splits text into lower-case word pieces: identifiers are broken at case changes, underscores,
 * hyphens, dots and letter/digit boundaries ("getHTTPResponse_v2" → get http response v 2).
 */
export function splitWords(text: string): string[] {
  const out: string[] = [];
  forEachWord(text, (word) => out.push(word));
  return out;
}

/** {@link splitWords} without the array: calls `fn` with each piece (the index build tokenises megabytes). */
export function forEachWord(text: string, fn: (word: string) => void): void {
  const src = typeof text === 'string' ? text : '';
  const ascii = (start: number, end: number): void => fn(src.slice(start, end).toLowerCase());
  // ASCII (nearly all tool metadata): one pass over char codes, no regex match objects.
  if (!NON_ASCII.test(src)) scanAsciiWords(src, ascii);
  else forEachMixedWord(src, ascii, fn);
}

/**
 * The pieces of text with a non-ASCII character, span by span ({@link forEachRun}): an all-ASCII span's
 * pieces as bounds into `src` with their hash (as {@link scanAsciiWords} reports them), the other
 * spans' pieces folded and split by regex, as words. Both the query split and the index's term reader
 * read such text by it.
 */
export function forEachMixedWord(
  src: string,
  onAsciiPiece: (start: number, end: number, hash: number) => void,
  onWord: (word: string) => void,
): void {
  forEachRun(src, (start, end, isAscii) => {
    if (isAscii) scanAsciiWords(src, onAsciiPiece, start, end);
    else forEachFoldedWord(src.slice(start, end), onWord);
  });
}

/** The pieces of text with non-ASCII characters: folded, split into tokens and pieces by regex. */
function forEachFoldedWord(text: string, fn: (word: string) => void): void {
  forEachMatch(TOKEN, foldDiacritics(text), (token) => forEachPiece(token, fn));
}

// ASCII text of at most this many characters between two runs with a non-ASCII character goes with
// them through the regex path: a regex call costs more than that much text, so text that alternates
// ("a é a é …") is not split into one call per word.
const MIXED_GAP = 64;

/**
 * The spans of `src` bounded by ASCII separators (ASCII characters other than letters and digits), in
 * order, with whether a span is all ASCII. A span either is all ASCII or holds runs with a non-ASCII
 * character, with at most {@link MIXED_GAP} characters between them. Text with a non-ASCII character
 * is split span by span, each as the whole would be: a separator is never part of a token, folding
 * works character by character, and canonical reordering cannot move a combining mark across it. So
 * only the spans with a non-ASCII character take the fold-and-regex path, which costs ~100× per word
 * (a stray "’" or "é" in a long text is common), and text in another script is still one regex pass.
 */
function forEachRun(src: string, onRun: (start: number, end: number, isAscii: boolean) => void): void {
  let start = 0;
  let isAscii = true;
  let mixedStart = -1; // the pending span with a non-ASCII character, [mixedStart, mixedEnd); -1 when none
  let mixedEnd = 0;
  let asciiEnd = -1; // end of the ASCII runs after it, not reported yet (they may join it); -1 when none
  const flush = (): void => {
    if (mixedStart >= 0) onRun(mixedStart, mixedEnd, false);
    if (asciiEnd >= 0) onRun(mixedEnd + 1, asciiEnd, true);
    mixedStart = -1;
    asciiEnd = -1;
  };
  for (let i = 0; i <= src.length; i++) {
    const c = i < src.length ? src.charCodeAt(i) : 32;
    if (c > 0x7f) isAscii = false;
    else if (asciiKind(c) === 0) {
      if (i > start) {
        if (!isAscii) {
          if (mixedStart >= 0 && start - mixedEnd <= MIXED_GAP) {
            mixedEnd = i;
            asciiEnd = -1;
          } else {
            flush();
            mixedStart = start;
            mixedEnd = i;
          }
        } else if (mixedStart < 0) onRun(start, i, true);
        else if (i - mixedEnd <= MIXED_GAP) asciiEnd = i;
        else {
          asciiEnd = i;
          flush();
        }
      }
      start = i + 1;
      isAscii = true;
    }
  }
  flush();
}

/**
 * The one statement of how ASCII text splits into word pieces: calls `onWord(start, end, hash)` for
 * each piece of `src` (letters and digits, broken at case changes and letter/digit boundaries:
 * "getHTTPResponse2" → get | HTTP | Response | 2), with `hash` = {@link pieceHash} of the piece lower-cased
 * (computed in the same pass, so a caller that looks pieces up by their characters reads them once).
 * Stops and returns false at the first character that is not ASCII (pieces before it were reported),
 * true otherwise. {@link forEachWord} and the index's term reader both split by it, so a query and a
 * tool's text always split alike. `from` and `to` bound the part of `src` scanned.
 */
export function scanAsciiWords(
  src: string,
  onWord: (start: number, end: number, hash: number) => void,
  from = 0,
  to = src.length,
): boolean {
  let start = -1;
  let prev = 0; // 0 none, 1 lower, 2 upper, 3 digit
  let h = 0; // hash of src[start, i) lower-cased
  let before = 0; // hash of src[start, i - 1): where a capital run gives its last letter away
  for (let i = from; i <= to; i++) {
    const c = i < to ? src.charCodeAt(i) : 32;
    if (c > 0x7f) return false;
    const kind = asciiKind(c);
    if (kind === 0) {
      if (start >= 0) onWord(start, i, h);
      start = -1;
      prev = 0;
      continue;
    }
    if (start < 0) {
      start = i;
      h = HASH_BASIS;
    } else if (
      (kind === 3) !== (prev === 3) || // letter/digit boundary
      (kind === 2 && prev === 1) || // camelCase: "getUser"
      (kind === 1 && prev === 2 && i - start > 1) // acronym then word: "HTTPResponse" → HTTP | Response
    ) {
      // Only a capital run gives its last letter to the word that follows ("HTTPResponse"); after a
      // digit the word starts here ("mp3s" → mp | 3 | s).
      if (kind === 1 && prev === 2) {
        onWord(start, i - 1, before);
        start = i - 1;
        h = hashStep(HASH_BASIS, src.charCodeAt(i - 1) | 0x20);
      } else {
        onWord(start, i, h);
        start = i;
        h = HASH_BASIS;
      }
    }
    before = h;
    h = hashStep(h, c | 0x20); // `| 0x20` lower-cases a letter and keeps a digit
    prev = kind;
  }
  return true;
}

/** Kind of an ASCII character code: 1 lower-case letter, 2 upper-case letter, 3 digit, 0 separator. */
function asciiKind(c: number): number {
  return c >= 97 && c <= 122 ? 1 : c >= 65 && c <= 90 ? 2 : c >= 48 && c <= 57 ? 3 : 0;
}

// FNV-1a (32-bit) over the lower-cased character codes of a piece.
const HASH_BASIS = 0x811c9dc5 | 0;
function hashStep(h: number, c: number): number {
  return Math.imul(h ^ c, 0x01000193);
}

/** The hash {@link scanAsciiWords} reports for a piece: FNV-1a of its (lower-case ASCII) characters. */
export function pieceHash(word: string): number {
  let h = HASH_BASIS;
  for (let i = 0; i < word.length; i++) h = hashStep(h, word.charCodeAt(i) | 0x20);
  return h;
}

/**
 * Each match of the global regex `re` in `text`. Not `matchAll`, which clones the regex on every call
 * (per token, on the non-ASCII path); the position is kept here, not in `re.lastIndex` between calls,
 * so a callback that splits text itself cannot disturb it.
 */
function forEachMatch(re: RegExp, text: string, fn: (match: string) => void): void {
  let at = 0;
  for (;;) {
    re.lastIndex = at;
    const m = re.exec(text);
    if (m === null) return;
    at = Math.max(re.lastIndex, at + 1); // an empty match (none of ours can match empty) still moves on
    fn(m[0]);
  }
}

/**
 * The INNER pieces of one token, as `token.matchAll(INNER)` gives them, lower-cased. An ASCII token
 * (letters and digits only) splits the same way by {@link scanAsciiWords}, without a regex match per piece.
 */
function forEachPiece(token: string, fn: (word: string) => void): void {
  if (NON_ASCII.test(token)) forEachMatch(INNER, token, (piece) => fn(piece.toLowerCase()));
  else scanAsciiWords(token, (start, end) => fn(token.slice(start, end).toLowerCase()));
}

// Words repeat a lot across tools and queries; Porter stemming is a chain of regex tests.
const STEM_CACHE = new Map<string, string>();
const STEM_CACHE_MAX = 100_000;

/** Porter stem of a lower-case word; words with digits and words of ≤ 2 letters are kept as they are. */
export function stem(word: string): string {
  let cached = STEM_CACHE.get(word);
  if (cached === undefined) {
    cached = word.length <= 2 || /[0-9]/.test(word) ? word : stemmer(word);
    if (STEM_CACHE.size >= STEM_CACHE_MAX) STEM_CACHE.clear();
    STEM_CACHE.set(word, cached);
  }
  return cached;
}

/** Split, drop stop words, stem: the shared path for index fields and queries. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of splitWords(text)) if (!STOP_WORDS.has(word)) out.push(stem(word));
  return out;
}

/** Removes separators and folds case, for comparing whole names ("GitHub_API" → "githubapi"). */
export function compact(text: string): string {
  // The pieces of splitWords joined = every letter and digit, folded and lower-cased (one regex pass).
  return foldDiacritics(typeof text === 'string' ? text : '')
    .replace(NOT_WORD, '')
    .toLowerCase();
}
const NOT_WORD = /[^\p{L}\p{N}]+/gu;

/**
 * Identifiers in text that split into several words ("get_weather", "WhoIS", "listRepos"), compacted
 * ("getweather", "whois", "listrepos"), without duplicates: a query may name a tool outright.
 */
export function compoundIdentifiers(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}_.\-]*/gu)) {
    if (!/[_.\-]|.\p{Lu}/u.test(m[0])) continue;
    const pieces = splitWords(m[0]);
    if (pieces.length > 1) out.add(pieces.join(''));
  }
  return [...out];
}

/** A query word and how much it counts. */
export interface QueryWord {
  /** Lower-case word piece, as from {@link splitWords}. */
  word: string;
  /** 1, or less for words inside quotes. */
  weight: number;
}

// A quoted span: the opening quote follows start/space/punctuation, the closing one precedes
// space/punctuation/end, so apostrophes ("I'm", "Messi's") are not taken for quotes. Double quotes
// pair with double quotes (straight or curly, either way round), so an apostrophe inside them
// ("l'eau", "don't") is text, not the end; single quotes and backticks cannot hold one.
const QUOTED =
  /(^|[\s([{:,=])(?:["\u201c]([^"\u201d\n]{1,200}?)["\u201d]|['\u2018`]([^"'\u2019\u201d`\n]{1,200}?)['\u2019`])(?=$|[\s)\]}.,;:!?])/g;

// A number standing alone ("87654", "192.168.1.1", "2021-03-04", "10:30"): not part of a word like "v2" or "mp3".
const LONE_NUMBER = /(?<![\p{L}\p{N}])\p{N}+(?:[.,:/-]\p{N}+)*(?![\p{L}\p{N}])/gu;
// The same for ASCII text (nearly every query), without Unicode property classes: several times faster.
const LONE_NUMBER_ASCII = /(?<![A-Za-z0-9])[0-9]+(?:[.,:/-][0-9]+)*(?![A-Za-z0-9])/g;
const DIGIT = /\p{N}/u;

/**
 * Query words; words inside quotes and numbers standing alone (argument values, not what the tool
 * does) weigh `quotedWeight` and `numberWeight`.
 */
export function queryWords(text: string, quotedWeight: number, numberWeight = 1): QueryWord[] {
  const out: QueryWord[] = [];
  const pushWords = (part: string, weight: number): void => {
    forEachWord(part, (word) => out.push({ word, weight }));
  };
  const push = (part: string, weight: number): void => {
    if (numberWeight === 1 || !DIGIT.test(part)) {
      pushWords(part, weight);
      return;
    }
    let at = 0;
    for (const m of part.matchAll(NON_ASCII.test(part) ? LONE_NUMBER : LONE_NUMBER_ASCII)) {
      pushWords(part.slice(at, m.index), weight);
      pushWords(m[0], weight * numberWeight);
      at = (m.index ?? 0) + m[0].length;
    }
    pushWords(part.slice(at), weight);
  };
  let last = 0;
  if (quotedWeight !== 1) {
    for (const m of text.matchAll(QUOTED)) {
      const start = (m.index ?? 0) + (m[1] as string).length;
      push(text.slice(last, start), 1);
      push((m[2] ?? m[3]) as string, quotedWeight);
      last = start + (m[0].length - (m[1] as string).length);
    }
  }
  push(text.slice(last), 1);
  return out;
}

// Sentence ends and the connectives that start a new request inside one query.
const CLAUSE_BREAK = /[.?!;\n]+(?:\s|$)|\b(?:and|also|additionally|then|plus)\b/gi;

/** Splits a request into its parts at sentence ends and connectives ("and", "also", "then"). */
export function splitClauses(text: string): string[] {
  return text
    .split(CLAUSE_BREAK)
    .map((c) => c.trim())
    .filter((c) => /[\p{L}\p{N}]/u.test(c));
}

// A part with fewer content words is a list item ("… of Japan, South Korea, and China"), not a
// request of its own: it stays with the part before it.
const MIN_CLAUSE_WORDS = 2;
const ALL_DIGITS = /^[0-9]+$/;

/** The words of each part of a request, a part of one content word (numbers do not count) joined to the part before it. */
export function joinListItems(clauseWords: QueryWord[][]): QueryWord[][] {
  const out: QueryWord[][] = [];
  for (const words of clauseWords) {
    let content = 0;
    for (const { word } of words) if (!STOP_WORDS.has(word) && !ALL_DIGITS.test(word)) content++;
    const last = out[out.length - 1];
    if (content < MIN_CLAUSE_WORDS && last !== undefined) for (const w of words) last.push(w);
    else out.push(words);
  }
  return out;
}

// A part that tells who is asking ("We are a retailer in Spain", "I have a recorded meeting") sets the
// scene for the request; it is not a request of its own. It opens with a first-person subject and a
// form of be or have, and holds no verb of wanting ("I'm looking for", "we would like", "I need").
const SPEAKERS = new Set(['i', 'we', 'my', 'our']);
const BE_OR_HAVE = new Set(['am', 'are', 'is', 'was', 'were', 'have', 'has', 'had', 'm', 're', 've']);
const WANTING = new Set(['need', 'want', 'like', 'look']); // stems

/** Whether a part of a request only describes the speaker ("We are a retailer in Spain"): context, not a request. */
export function isContextClause(words: readonly QueryWord[]): boolean {
  const [subject, verb] = words;
  if (subject === undefined || verb === undefined || !SPEAKERS.has(subject.word) || !BE_OR_HAVE.has(verb.word)) return false;
  for (const { word } of words) if (WANTING.has(stem(word))) return false;
  return true;
}

/** The words of all clauses, in order (Array.prototype.flat is slow in V8). */
export function flatten(clauseWords: readonly QueryWord[][]): QueryWord[] {
  const out: QueryWord[] = [];
  for (const cw of clauseWords) for (const w of cw) out.push(w);
  return out;
}
