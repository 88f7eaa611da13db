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
  /** Frees the WASM encoder. Further calls throw. Safe to call twice. */
  free(): void;
}

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

  return {
    encoding: encodingName,
    isCertainlyBelow(text, threshold) {
      // A UTF-16 code unit is at most 3 UTF-8 bytes: skip even the byte count for tiny texts.
      if (text.length * 3 < threshold) return true;
      if (text.length >= threshold) return false;
      return utf8Bytes(text) < threshold;
    },
    count(text) {
      let total = 0;
      for (let start = 0; start < text.length; ) {
        const end = sliceEnd(text, start, start + MAX_SLICE_CHARS);
        total += countSlice(text.slice(start, end));
        start = end;
      }
      return total;
    },
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
    free() {
      encoder?.free();
      encoder = undefined;
    },
  };
}
