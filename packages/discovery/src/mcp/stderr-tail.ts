/** Keeps the last lines a process wrote to stderr, for start-up and crash reports. */
export class StderrTail {
  private text = '';

  constructor(private readonly maxChars = 4_000) {}

  /** Appends a chunk, dropping the oldest text beyond the limit. */
  push(chunk: string | Buffer): void {
    this.text += chunk.toString();
    if (this.text.length > this.maxChars * 2) this.text = this.text.slice(-this.maxChars);
  }

  /** The last `lines` lines (within the character limit). */
  tail(lines = 20): string {
    const cut = this.text.slice(-this.maxChars);
    return cut
      .split('\n')
      .slice(-lines - 1)
      .join('\n')
      .trim();
  }

  /** Forgets everything (a fresh process). */
  clear(): void {
    this.text = '';
  }
}
