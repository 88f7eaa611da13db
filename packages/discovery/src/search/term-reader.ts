import { forEachMixedWord, scanAsciiWords } from './text.js';
import type { Vocabulary } from './tool-terms.js';

// Run-together name words shorter than this are left alone: short words split into short pieces by chance.
export const MIN_SPLIT_NAME_WORD = 7;

const INITIAL_SLOTS = 1 << 15;
// Memo value of a text that is not ASCII.
const NOT_ASCII = -1;

/**
 * Reads text into term ids of a {@link Vocabulary}, appending them to `ids` (stop words dropped). The
 * pieces are those of `forEachWord`; for ASCII text (nearly all tool metadata) a piece is looked up by
 * its characters in an open-addressing table of the words seen so far, so no string is made per token:
 * a string (and the vocabulary's Map) is touched once per distinct word. Other text is read span by
 * span (`forEachMixedWord`): its ASCII spans so, the others folded and split by regex.
 */
export class TermReader {
  /** Term ids read since the last `count = 0`. */
  ids = new Int32Array(1 << 12);
  /** Number of ids in `ids`. */
  count = 0;
  // Where long name words go while a name is read (for splitting run-together words), else undefined.
  private long: string[] | undefined;
  // Slot → entry + 1 (0 = empty); the table is kept at most half full.
  private slots = new Int32Array(INITIAL_SLOTS);
  private hashes = new Int32Array(INITIAL_SLOTS >> 1);
  private termIds = new Int32Array(INITIAL_SLOTS >> 1);
  // Entry e's word is words[e]; its characters are also chars[charStart[e], charStart[e + 1]) for comparing.
  private readonly words: string[] = [];
  private chars = new Uint8Array(1 << 18);
  private charStart = new Int32Array((INITIAL_SLOTS >> 1) + 1);
  // Text whose term ids were read once: strings recur across tools (a server's name on each of its
  // tools, parameter names and descriptions such as "The page number" across real MCP catalogues).
  private readonly memo = new Map<string, number>();
  private memoIds = new Int32Array(1 << 14);
  private readonly memoStart: number[] = [0];

  constructor(private readonly vocabulary: Vocabulary) {}

  /** Appends the term ids of `text`; `long` receives its words of ≥ {@link MIN_SPLIT_NAME_WORD} letters. */
  read(text: string, long?: string[]): void {
    this.long = long;
    if (!this.readAscii(text)) this.readMixed(text);
    this.long = undefined;
  }

  /** {@link read}, for text that recurs: the ids of a string already read are copied, not read again. */
  readRepeated(text: string): void {
    if (!this.readRepeatedAscii(text)) this.readMixed(text);
  }

  /** {@link readRepeated} for ASCII text; false (nothing appended) for other text. */
  private readRepeatedAscii(text: string): boolean {
    const k = this.memo.get(text);
    if (k !== undefined) {
      if (k < 0) return false;
      const start = this.memoStart[k] as number;
      const end = this.memoStart[k + 1] as number;
      this.reserve(end - start);
      for (let i = start; i < end; i++) this.ids[this.count++] = this.memoIds[i] as number;
      return true;
    }
    const from = this.count;
    if (!this.readAscii(text)) {
      this.memo.set(text, NOT_ASCII);
      return false;
    }
    const at = this.memoStart[this.memoStart.length - 1] as number;
    const n = this.count - from;
    if (at + n > this.memoIds.length) this.memoIds = grow(this.memoIds, at + n);
    for (let i = 0; i < n; i++) this.memoIds[at + i] = this.ids[from + i] as number;
    this.memo.set(text, this.memoStart.length - 1);
    this.memoStart.push(at + n);
    return true;
  }

  private readonly addWord = (word: string): void => this.push(this.vocabulary.idOf(word), word);

  private push(id: number, word: string): void {
    if (id < 0) return;
    this.reserve(1);
    this.ids[this.count++] = id;
    if (this.long && word.length >= MIN_SPLIT_NAME_WORD) this.long.push(word);
  }

  private reserve(n: number): void {
    if (this.count + n > this.ids.length) this.ids = grow(this.ids, this.count + n);
  }

  // The text readAscii is reading (the scanner reports piece bounds into it).
  private src = '';
  private readonly onPiece = (start: number, end: number, hash: number): void => this.piece(this.src, start, end, hash);

  /**
   * The pieces of ASCII `src` (split by `scanAsciiWords`, as every text is), each looked up by its
   * characters. Returns false (having undone what it appended) at the first non-ASCII character: such
   * text is folded and split by regex instead.
   */
  private readAscii(src: string): boolean {
    const from = this.count;
    const longFrom = this.long?.length ?? 0;
    this.src = src;
    const ascii = scanAsciiWords(src, this.onPiece);
    this.src = '';
    if (ascii) return true;
    this.count = from;
    if (this.long) this.long.length = longFrom;
    return false;
  }

  /** Text with a non-ASCII character, split as `forEachWord` splits it: ASCII spans looked up by their characters. */
  private readMixed(src: string): void {
    this.src = src;
    forEachMixedWord(src, this.onPiece, this.addWord);
    this.src = '';
  }

  /** Appends the id of src[start, end) lower-cased (ASCII letters and digits only), whose hash is `h`. */
  private piece(src: string, start: number, end: number, h: number): void {
    const mask = this.slots.length - 1;
    const len = end - start;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const e = (this.slots[s] as number) - 1;
      if (e < 0) {
        this.insert(s, h, src.slice(start, end).toLowerCase());
        const last = this.words.length - 1;
        this.push(this.termIds[last] as number, this.words[last] as string);
        return;
      }
      if (this.hashes[e] !== h) continue;
      const at = this.charStart[e] as number;
      if ((this.charStart[e + 1] as number) - at !== len) continue;
      let j = 0;
      while (j < len && this.chars[at + j] === (src.charCodeAt(start + j) | 0x20)) j++;
      if (j === len) {
        this.push(this.termIds[e] as number, this.words[e] as string);
        return;
      }
    }
  }

  private insert(slot: number, h: number, word: string): void {
    const e = this.words.length;
    if (e === this.hashes.length) {
      this.hashes = grow(this.hashes, e + 1);
      this.termIds = grow(this.termIds, e + 1);
      this.charStart = grow(this.charStart, e + 2);
    }
    const at = this.charStart[e] as number;
    if (at + word.length > this.chars.length) {
      const chars = new Uint8Array(Math.max(at + word.length, this.chars.length * 2));
      chars.set(this.chars);
      this.chars = chars;
    }
    for (let j = 0; j < word.length; j++) this.chars[at + j] = word.charCodeAt(j);
    this.charStart[e + 1] = at + word.length;
    this.words.push(word);
    this.hashes[e] = h;
    this.termIds[e] = this.vocabulary.idOf(word);
    this.slots[slot] = e + 1;
    if (2 * (e + 1) > this.slots.length) this.rehash();
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    const mask = this.slots.length - 1;
    for (let e = 0; e < this.words.length; e++) {
      let s = (this.hashes[e] as number) & mask;
      while (this.slots[s] !== 0) s = (s + 1) & mask;
      this.slots[s] = e + 1;
    }
  }
}

function grow(a: Int32Array, atLeast: number): Int32Array<ArrayBuffer> {
  const next = new Int32Array(Math.max(atLeast, a.length * 2));
  next.set(a);
  return next;
}
