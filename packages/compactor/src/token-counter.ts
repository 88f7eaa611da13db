import { get_encoding } from 'tiktoken';
import type { Tiktoken, TiktokenEncoding } from 'tiktoken';

/** The encoding used when none is given: the one of current OpenAI models. */
export const DEFAULT_ENCODING: TiktokenEncoding = 'o200k_base';

/**
 * Longest slice handed to the encoder in one call. tiktoken's BPE is quadratic in the length of
 * one pre-token (a 100,000-character run of letters takes seconds and very long runs abort the
 * WASM module), so long texts are cut into slices at positions where the pre-tokenizer would cut
 * anyway; between slices the counter yields to the event loop.
 */
export const MAX_SLICE_CHARS = 4_096;

/** Options of {@link createTokenCounter}. */
export interface TokenCounterOptions {
  /** The tiktoken encoding (default `o200k_base`). */
  encoding?: TiktokenEncoding;
}

/** Counts tokens with one reused tiktoken encoder. */
export interface TokenCounter {
  /** The encoding in use. */
  readonly encoding: TiktokenEncoding;
  /**
   * Whether `text` certainly has fewer than `threshold` tokens, decided without encoding: every
   * token covers at least one UTF-8 byte, so a text of fewer bytes than `threshold` cannot reach
   * it. This is the cheap early exit for the common small result.
   */
  isCertainlyBelow(text: string, threshold: number): boolean;
  /** Counts tokens synchronously (exact for texts up to {@link MAX_SLICE_CHARS}). */
  count(text: string): number;
  /**
   * Counts tokens slice by slice, yielding to the event loop between slices so that a 1 MB
   * result never blocks other work. Rejects with the signal's reason when it aborts.
   */
  countAsync(text: string, signal?: AbortSignal): Promise<number>;
  /**
   * Counts {@link WARM_UP_SAMPLE} once, so that the encoder's one-time costs are paid now instead
   * of by the first results counted in model steps: V8 compiling tiktoken's WASM to optimised code
   * (on background threads, as the code gets hot) and the encoder's own caches. Measured: the first
   * ten 2 KB results of a fresh process cost ~45 ms CPU cold and ~15 ms after a warm-up, which takes
   * 10–20 ms once. Call it at start-up, while other work waits (the reference host does so while its
   * MCP servers start). Returns the sample's token count; 0 after {@link free}.
   */
  warmUp(): number;
  /** Frees the WASM encoder. Further calls throw. Safe to call twice. */
  free(): void;
}

/**
 * A text shaped like tool results — a JSON listing with schemas, prose, shell output, code, paths,
 * numbers and some non-ASCII words — longer than one slice, so that a warm-up runs every path the
 * counter takes. Deterministic: the same in every process.
 */
export const WARM_UP_SAMPLE: string = (() => {
  const listing = JSON.stringify(
    {
      query: 'create an issue in the tracker',
      tools: Array.from({ length: 8 }, (_, i) => ({
        name: `server_${i}__create_item_${i}`,
        description: `Creates item ${i} in the project board and returns its id, its URL and the time it was created.`,
        inputSchema: {
          type: 'object',
          properties: {
            title: { type: 'string', description: 'A short title (at most 256 characters).' },
            labels: { type: 'array', items: { type: 'string' } },
            priority: { type: 'integer', minimum: 0, maximum: 4 },
          },
          required: ['title'],
        },
      })),
    },
    null,
    2,
  );
  const prose =
    'The build failed on the second step because the cache folder could not be written; ' +
    'résumé, naïve, Straße and 日本語 show that non-ASCII text is counted too. ';
  const shell = Array.from(
    { length: 20 },
    (_, i) => `-rw-r--r-- 1 user user ${1024 + i * 37} Dec  4 21:${10 + i} src/dir${i}/file-${i}.ts`,
  );
  const code = 'export function add(a: number, b: number): number {\n  return a + b; // 0x1F\n}\n';
  return [listing, prose.repeat(6), shell.join('\n'), code.repeat(8)].join('\n\n');
})();

const closedMarker = Symbol.for('aibuddy.compactor.TokenCounterClosedError');

/** Error thrown by a counter used after `free()`. */
export class TokenCounterClosedError extends Error {
  private readonly [closedMarker] = true;
  override readonly name = 'TokenCounterClosedError';
  constructor() {
    super('[projection] the token counter was freed (the compactor is closed); create a new compactor to count again.');
  }
  /** Whether `value` is a `TokenCounterClosedError` (works across package copies). */
  static isInstance(value: unknown): value is TokenCounterClosedError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[closedMarker] === true;
  }
}

function isSpace(code: number): boolean {
  // Whitespace other than line breaks (the pre-tokenizer treats \r\n runs separately).
  return code === 32 || code === 9 || code === 11 || code === 12 || code === 0xa0;
}

function isWhitespace(code: number): boolean {
  return isSpace(code) || code === 10 || code === 13;
}

/**
 * Where to cut `text` at or before `end` (and after `start`): after a line break followed by a
 * non-space character, else before a space that precedes a non-space character — both places
 * where the o200k/cl100k pre-tokenizers start a new piece, so counts stay exact. Without such a
 * place (one huge word), a hard cut that never splits a surrogate pair.
 */
export function sliceEnd(text: string, start: number, end: number): number {
  if (end >= text.length) return text.length;
  const floor = start + Math.floor((end - start) / 2);
  for (let i = end; i > floor; i--) {
    const prev = text.charCodeAt(i - 1);
    const here = text.charCodeAt(i);
    if ((prev === 10 || prev === 13) && !isWhitespace(here)) return i;
  }
  for (let i = end; i > floor; i--) {
    const here = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    const prev = text.charCodeAt(i - 1);
    if (isSpace(here) && !isWhitespace(next) && !isWhitespace(prev)) return i;
  }
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** Creates a token counter with one tiktoken encoder, reused until {@link TokenCounter.free}. */
export function createTokenCounter(options: TokenCounterOptions = {}): TokenCounter {
  const encodingName = options.encoding ?? DEFAULT_ENCODING;
  let encoder: Tiktoken | undefined = get_encoding(encodingName);
  const live = (): Tiktoken => {
    if (!encoder) throw new TokenCounterClosedError();
    return encoder;
  };
  const countSlice = (slice: string) => live().encode_ordinary(slice).length;
  const count = (text: string) => {
    let total = 0;
    for (let start = 0; start < text.length; ) {
      const end = sliceEnd(text, start, start + MAX_SLICE_CHARS);
      total += countSlice(text.slice(start, end));
      start = end;
    }
    return total;
  };

  return {
    encoding: encodingName,
    isCertainlyBelow(text, threshold) {
      // A UTF-16 code unit is at most 3 UTF-8 bytes: skip even the byte count for tiny texts.
      if (text.length * 3 < threshold) return true;
      if (text.length >= threshold) return false;
      return utf8Bytes(text) < threshold;
    },
    count,
    async countAsync(text, signal) {
      let total = 0;
      let sinceYield = 0;
      for (let start = 0; start < text.length; ) {
        if (signal?.aborted) throw signal.reason;
        const end = sliceEnd(text, start, start + MAX_SLICE_CHARS);
        total += countSlice(text.slice(start, end));
        sinceYield += end - start;
        start = end;
        if (sinceYield >= MAX_SLICE_CHARS * 4 && start < text.length) {
          sinceYield = 0;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
      if (signal?.aborted) throw signal.reason;
      return total;
    },
    warmUp() {
      return encoder ? count(WARM_UP_SAMPLE) : 0;
    },
    free() {
      encoder?.free();
      encoder = undefined;
    },
  };
}
