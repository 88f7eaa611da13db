import { hashWord } from './word-spans.js';

/**
 * A string → int table that can also be probed with a span of ASCII text, lower-cased on the fly.
 * The index build meets about a million word tokens at 10,000 tools but only tens of thousands of
 * distinct words: probing with the span avoids allocating (and garbage-collecting) a string per token,
 * and a string is made only for a word seen for the first time.
 *
 * Layout, for few cache misses per probe: each slot holds [hash, entry + 1, pool offset, length], and
 * the words' characters sit back to back in one pool, so a hit reads one slot and one pool range.
 */
export class WordTable {
  /** The words, by entry. */
  readonly words: string[] = [];
  /** The value stored with each entry. */
  values = new Int32Array(1024);
  /** Open addressing, linear probing, SLOT ints per slot; entry + 1 = 0 marks an empty slot. Kept at most half full. */
  private slots = new Int32Array(2048 * SLOT);
  private pool = new Uint16Array(1 << 14);
  private poolUsed = 0;

  /** Number of entries. */
  get size(): number {
    return this.words.length;
  }

  /** Entry of `word`, or -1. */
  find(word: string): number {
    const len = word.length;
    const h = hashWord(word);
    const slots = this.slots;
    const pool = this.pool;
    const mask = slots.length / SLOT - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const at = s * SLOT;
      const e = (slots[at + 1] as number) - 1;
      if (e < 0) return -1;
      if (slots[at] !== h || slots[at + 3] !== len) continue;
      const from = slots[at + 2] as number;
      let i = 0;
      while (i < len && pool[from + i] === word.charCodeAt(i)) i++;
      if (i === len) return e;
    }
  }

  /**
   * Entry of `text.slice(start, end).toLowerCase()` for ASCII `text`, or -1; allocates nothing.
   * `h` is that word's {@link hashWord}, as {@link scanWordSpans} computes it while scanning.
   */
  findSpan(text: string, start: number, end: number, h: number): number {
    const len = end - start;
    const slots = this.slots;
    const pool = this.pool;
    const mask = slots.length / SLOT - 1;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const at = s * SLOT;
      const e = (slots[at + 1] as number) - 1;
      if (e < 0) return -1;
      if (slots[at] !== h || slots[at + 3] !== len) continue;
      const from = (slots[at + 2] as number) - start;
      let i = start;
      while (i < end && pool[from + i] === lowerAscii(text.charCodeAt(i))) i++;
      if (i === end) return e;
    }
  }

  /** Adds `word` (not yet in the table) with `value`; returns its entry. */
  add(word: string, value: number): number {
    const e = this.words.length;
    if (e === this.values.length) {
      const values = new Int32Array(e * 2);
      values.set(this.values);
      this.values = values;
    }
    if (2 * (e + 1) > this.slots.length / SLOT) this.rehash((this.slots.length / SLOT) * 2);
    const len = word.length;
    if (this.poolUsed + len > this.pool.length) {
      const pool = new Uint16Array(Math.max(this.pool.length * 2, this.poolUsed + len));
      pool.set(this.pool);
      this.pool = pool;
    }
    const from = this.poolUsed;
    for (let i = 0; i < len; i++) this.pool[from + i] = word.charCodeAt(i);
    this.poolUsed += len;
    this.words.push(word);
    this.values[e] = value;
    this.place(this.slots, hashWord(word), e + 1, from, len);
    return e;
  }

  private place(slots: Int32Array, h: number, entryPlus1: number, from: number, len: number): void {
    const mask = slots.length / SLOT - 1;
    let s = h & mask;
    while (slots[s * SLOT + 1] !== 0) s = (s + 1) & mask;
    const at = s * SLOT;
    slots[at] = h;
    slots[at + 1] = entryPlus1;
    slots[at + 2] = from;
    slots[at + 3] = len;
  }

  private rehash(size: number): void {
    const old = this.slots;
    const slots = new Int32Array(size * SLOT);
    for (let at = 0; at < old.length; at += SLOT) {
      const entryPlus1 = old[at + 1] as number;
      if (entryPlus1 !== 0) this.place(slots, old[at] as number, entryPlus1, old[at + 2] as number, old[at + 3] as number);
    }
    this.slots = slots;
  }
}

const SLOT = 4;

function lowerAscii(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}
