import { F_NAME } from './fields.js';
import { isStopWord, splitWords, stem } from './text.js';
import { SPAN, scanWordSpans, wordSpans } from './word-spans.js';
import { WordTable } from './word-table.js';

/**
 * Appends a catalog's tokens to growable typed buffers (10,000 tools: about 400,000 tokens), interning
 * each word in a {@link WordTable}; a word's stop-word check and stem run once, when first seen.
 */
export class TokenWriter {
  readonly words = new WordTable();
  readonly vocab = new Map<string, number>();
  readonly vocabTerms: string[] = [];
  tokTerm = new Int32Array(1 << 16);
  tokField = new Uint8Array(1 << 16);
  tokCount = 0;
  nameRaw = new Int32Array(1 << 12);
  nameRawCount = 0;

  /** Spans of the last {@link scan}: the next one to take, and how many there are. */
  private spanAt = 0;
  private spanCount = 0;

  /** Finds the word spans of ASCII `text` for {@link take}; false (nothing found) when `text` is not ASCII. */
  scan(text: string): boolean {
    this.spanCount = scanWordSpans(text, true);
    this.spanAt = 0;
    return this.spanCount >= 0;
  }

  /** Tokens of `text` into `field`; returns how many were kept (stop words are not). */
  addText(text: string, field: number): number {
    if (!this.scan(text)) return this.addWords(splitWords(text), field);
    return this.take(text, text.length, field);
  }

  /**
   * Adds the scanned words of `text` that start before `end` to `field`; returns how many were kept.
   * Spans come from the last {@link scan} of `text`.
   */
  take(text: string, end: number, field: number): number {
    // Room for every remaining piece up front, so the loop below works on locals.
    this.reserve(this.spanCount - this.spanAt, field);
    const spans = wordSpans();
    const words = this.words;
    const tokTerm = this.tokTerm;
    const tokField = this.tokField;
    let at = this.tokCount;
    let raw = this.nameRawCount;
    let k = this.spanAt;
    for (; k < this.spanCount; k++) {
      const start = spans[SPAN * k] as number;
      if (start >= end) break;
      const stop = spans[SPAN * k + 1] as number;
      let entry = words.findSpan(text, start, stop, spans[SPAN * k + 2] as number);
      if (entry < 0) entry = this.addWord(text.slice(start, stop).toLowerCase());
      if (field === F_NAME) this.nameRaw[raw++] = entry;
      const id = words.values[entry] as number;
      if (id < 0) continue;
      tokTerm[at] = id;
      tokField[at] = field;
      at++;
    }
    this.spanAt = k;
    const kept = at - this.tokCount;
    this.tokCount = at;
    this.nameRawCount = raw;
    return kept;
  }

  /** Copies the `field` tokens of tokTerm[from, to) to the end; returns how many. */
  copyField(from: number, to: number, field: number): number {
    this.reserve(to - from, -1);
    let at = this.tokCount;
    for (let i = from; i < to; i++) {
      if (this.tokField[i] !== field) continue;
      this.tokTerm[at] = this.tokTerm[i] as number;
      this.tokField[at] = field;
      at++;
    }
    const kept = at - this.tokCount;
    this.tokCount = at;
    return kept;
  }

  // Non-ASCII text: diacritic folding and Unicode classes, one string per word (rare in tool metadata).
  private addWords(pieces: readonly string[], field: number): number {
    this.reserve(pieces.length, field);
    let kept = 0;
    for (const word of pieces) {
      let entry = this.words.find(word);
      if (entry < 0) entry = this.addWord(word);
      if (field === F_NAME) this.nameRaw[this.nameRawCount++] = entry;
      const id = this.words.values[entry] as number;
      if (id < 0) continue;
      this.tokTerm[this.tokCount] = id;
      this.tokField[this.tokCount] = field;
      this.tokCount++;
      kept++;
    }
    return kept;
  }

  /** A word seen for the first time: stop word (-1) or its stem's term id. */
  private addWord(word: string): number {
    let id = -1;
    if (!isStopWord(word)) {
      const s = stem(word);
      const known = this.vocab.get(s);
      if (known === undefined) {
        id = this.vocabTerms.length;
        this.vocab.set(s, id);
        this.vocabTerms.push(s);
      } else id = known;
    }
    return this.words.add(word, id);
  }

  private reserve(count: number, field: number): void {
    if (this.tokCount + count > this.tokTerm.length) {
      const size = Math.max(this.tokTerm.length * 2, this.tokCount + count);
      this.tokTerm = grow(this.tokTerm, new Int32Array(size));
      this.tokField = grow(this.tokField, new Uint8Array(size));
    }
    if (field === F_NAME && this.nameRawCount + count > this.nameRaw.length) {
      this.nameRaw = grow(this.nameRaw, new Int32Array(Math.max(this.nameRaw.length * 2, this.nameRawCount + count)));
    }
  }
}

function grow<T extends Int32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}
