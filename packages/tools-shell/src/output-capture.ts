import { cutHeadTail } from '@aibuddy/registry';

/**
 * What is kept of one output stream: its exact length, its first and last characters (enough for
 * any model view), and the full text up to a memory cap (for the client and persistence).
 */
export interface StreamCapture {
  /** Total characters produced (UTF-16 code units, as JavaScript counts them). Exact. */
  total: number;
  /** The first characters, at least as many as any model view needs. */
  head: string;
  /** The last characters, likewise. */
  tail: string;
  /** The full text, or head + marker + tail when it exceeded the raw cap (`complete` is then false). */
  full: string;
  /** Whether `full` is the whole output. */
  complete: boolean;
}

/** Collects a stream chunk by chunk without ever holding more than `rawCap` + `edge` characters. */
export class StreamCollector {
  private total = 0;
  private head = '';
  private chunks: string[] = [];
  private kept = 0;
  private overflowed = false;
  private tailChunks: string[] = [];
  private tailLength = 0;

  /**
   * @param edge how many characters of head and tail to keep exactly (at least the model budget)
   * @param rawCap how many characters of full text to keep before keeping only head and tail
   */
  constructor(
    private readonly edge: number,
    private readonly rawCap: number,
  ) {}

  /** Adds a chunk. */
  push(chunk: string): void {
    if (chunk.length === 0) return;
    this.total += chunk.length;
    if (this.head.length < this.edge) this.head += chunk.slice(0, this.edge - this.head.length);
    if (!this.overflowed) {
      if (this.kept + chunk.length <= this.rawCap) {
        this.chunks.push(chunk);
        this.kept += chunk.length;
      } else {
        // Keep the part that fits, so the raw head is as long as the cap allows.
        this.chunks.push(chunk.slice(0, this.rawCap - this.kept));
        this.kept = this.rawCap;
        this.overflowed = true;
      }
    }
    this.tailChunks.push(chunk);
    this.tailLength += chunk.length;
    // Keep the tail bounded: drop whole chunks from the front while the rest still covers the edge.
    while (this.tailChunks.length > 1 && this.tailLength - this.tailChunks[0]!.length >= Math.max(this.edge, this.rawCap / 2)) {
      this.tailLength -= this.tailChunks.shift()!.length;
    }
  }

  /** Whether anything was pushed. */
  get empty(): boolean {
    return this.total === 0;
  }

  /** The capture so far. */
  capture(): StreamCapture {
    const tailText = this.tailChunks.join('');
    const tail = tailText.slice(Math.max(0, tailText.length - this.edge));
    if (!this.overflowed) {
      return { total: this.total, head: this.head, tail, full: this.chunks.join(''), complete: true };
    }
    const half = Math.floor(this.rawCap / 2);
    const kept = cutHeadTail(
      { head: this.chunks.join(''), tail: tailText, total: this.total },
      { headChars: half, tailChars: half },
    );
    return {
      total: this.total,
      head: this.head,
      tail,
      full: `${kept.head}\n[… ${kept.omitted} characters not kept (raw capture cap of ${this.rawCap} characters) …]\n${kept.tail}`,
      complete: false,
    };
  }
}

/** A capture of a string that is already complete (an adapter that does not stream). */
export function captureString(text: string, edge: number): StreamCapture {
  return {
    total: text.length,
    head: text.slice(0, edge),
    tail: text.slice(Math.max(0, text.length - edge)),
    full: text,
    complete: true,
  };
}
