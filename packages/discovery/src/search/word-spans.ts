/**
 * The word-boundary scanner behind `splitWords`, reporting positions instead of strings, so the index
 * build can look words up straight from the source text without allocating a string per token.
 */

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const NUMBER = /\p{N}/u;

// Character classes.
const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;

// Class of each ASCII code: one table load per character instead of a chain of range tests.
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_CLASS[c] = c >= 97 && c <= 122 ? LOWER : c >= 65 && c <= 90 ? UPPER : c >= 48 && c <= 57 ? DIGIT : OTHER;
}

// Non-ASCII: letters of other scripts count as lower-case letters (no case split), digits as digits.
function unicodeClass(ch: string): number {
  if (!LETTER_OR_DIGIT.test(ch)) return OTHER;
  return NUMBER.test(ch) ? DIGIT : ch === ch.toLowerCase() ? LOWER : UPPER;
}

/** Reusable span buffer: [start, end, hash] triples. Grown on demand; one module-wide copy (scans are synchronous). */
let spans = new Int32Array(768);

/** Ints per span in the buffer. */
export const SPAN = 3;
// Largest buffer kept between scans (256 KB; one tool's text rarely needs a tenth of it).
const MAX_KEPT = SPAN * 21_845;

/**
 * Finds the word pieces of `src` (already diacritic-folded): identifiers are broken at case changes,
 * underscores, hyphens, dots and letter/digit boundaries ("getHTTPResponse_v2" → get|HTTP|Response|v|2).
 * Returns the number of pieces; piece k is `src.slice(spans[SPAN * k], spans[SPAN * k + 1])` where
 * `spans = wordSpans()`, valid until the next scan. `spans[SPAN * k + 2]` is {@link hashWord} of the
 * lower-cased piece, computed in the same pass (meaningful for ASCII pieces only).
 * With `asciiOnly`, returns -1 as soon as a non-ASCII character is seen (the caller then takes the
 * folding path; checking here saves a separate pass over the text).
 */
export function scanWordSpans(src: string, asciiOnly = false): number {
  // At most one piece per character. A buffer grown for one huge text is not kept for the next ones.
  const need = SPAN * (src.length + 1);
  if (spans.length < need) spans = new Int32Array(need + SPAN * 64);
  else if (spans.length > MAX_KEPT && need <= MAX_KEPT) spans = new Int32Array(MAX_KEPT);
  const out = spans;
  let count = 0;
  let start = -1;
  let prev = OTHER;
  // Hash of the current piece so far, the same before its last character, and that character lower-cased.
  let h = HASH_SEED;
  let hPrev = HASH_SEED;
  let prevCode = 0;
  const len = src.length;
  for (let i = 0; i <= len; i++) {
    let cls = OTHER;
    let code = 0;
    if (i < len) {
      code = src.charCodeAt(i);
      if (code < 128) cls = ASCII_CLASS[code] as number;
      else if (asciiOnly) return -1;
      else cls = unicodeClass(src[i] as string);
    }
    let boundary = cls === OTHER;
    if (!boundary && start >= 0) {
      if (cls === DIGIT) boundary = prev !== DIGIT;
      else if (prev === DIGIT) boundary = true;
      else if (cls === UPPER && prev === LOWER) boundary = true;
      else if (cls === LOWER && prev === UPPER && i - start >= 2) {
        // "HTTPResponse": the last capital starts the next word.
        out[count++] = start;
        out[count++] = i - 1;
        out[count++] = hPrev;
        start = i - 1;
        h = Math.imul(HASH_SEED ^ prevCode, HASH_PRIME);
      }
    }
    if (boundary && start >= 0) {
      out[count++] = start;
      out[count++] = i;
      out[count++] = h;
      start = -1;
    }
    if (cls !== OTHER) {
      if (start < 0) {
        start = i;
        h = HASH_SEED;
      }
      if (cls === UPPER && code < 128) code += 32;
      hPrev = h;
      h = Math.imul(h ^ code, HASH_PRIME);
    }
    prev = cls;
    prevCode = code;
  }
  return count / SPAN;
}

/** The span buffer filled by the last {@link scanWordSpans} call. */
export function wordSpans(): Int32Array {
  return spans;
}

// FNV-1a over UTF-16 code units.
const HASH_SEED = 0x811c9dc5 | 0;
const HASH_PRIME = 0x01000193;

/** The hash {@link scanWordSpans} gives a lower-case ASCII piece, for looking words up by string. */
export function hashWord(word: string): number {
  let h = HASH_SEED;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), HASH_PRIME);
  return h;
}
