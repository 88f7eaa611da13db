/** Length of an incomplete UTF-8 sequence at the end of `buf` (0 when it ends on a whole character). */
function incompleteTail(buf: Buffer): number {
  for (let back = 1; back <= Math.min(3, buf.length); back++) {
    const byte = buf[buf.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? back : 0;
  }
  return 0;
}

/** Number of continuation bytes at the start of `buf` (a character cut in half by the tail window). */
function leadingContinuations(buf: Buffer): number {
  let k = 0;
  while (k < buf.length && k < 3 && (buf[k]! & 0xc0) === 0x80) k++;
  return k;
}

/**
 * Captures a byte stream with a fixed memory bound: the first half of the cap is kept as the head,
 * the last half as a sliding tail; everything between is only counted. The text joins both with a
 * marker saying how many bytes were left out, without broken multi-byte characters at the seams.
 */
export class CappedOutput {
  private readonly half: number;
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Bytes seen in total. */
  total = 0;

  constructor(private readonly cap: number) {
    this.half = Math.max(1, Math.floor(cap / 2));
  }

  /** True once more bytes arrived than the cap keeps. */
  get truncated(): boolean {
    return this.total > this.cap;
  }

  /**
   * Adds a chunk. Chunks are kept by reference, not copied: a child process's pipe hands out a
   * fresh buffer per read, and copying 1 GB of output only feeds the garbage collector.
   */
  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.half) {
      const take = Math.min(this.half - this.headBytes, rest.length);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    if (rest.length >= this.half) {
      this.tail = [rest.subarray(rest.length - this.half)];
      this.tailBytes = this.half;
      return;
    }
    this.tail.push(rest);
    this.tailBytes += rest.length;
    while (this.tailBytes > this.half) {
      const first = this.tail[0]!;
      const excess = this.tailBytes - this.half;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }

  /** The captured text: whole when under the cap, else head + marker + tail. */
  text(): string {
    const head = Buffer.concat(this.head, this.headBytes);
    const tail = Buffer.concat(this.tail, this.tailBytes);
    if (!this.truncated) return Buffer.concat([head, tail]).toString('utf8');
    const headClean = head.subarray(0, head.length - incompleteTail(head));
    const tailClean = tail.subarray(leadingContinuations(tail));
    const omitted = this.total - headClean.length - tailClean.length;
    return `${headClean.toString('utf8')}\n… [${omitted} bytes of output omitted] …\n${tailClean.toString('utf8')}`;
  }
}
