import { get_encoding } from 'tiktoken';
import type { Tiktoken } from 'tiktoken';

let shared: Tiktoken | undefined;
/** One raw encoder for the whole test file (creating one costs about half a second). */
function reference(): Tiktoken {
  shared ??= get_encoding('o200k_base');
  return shared;
}

/** Counts with a raw, unsliced encoder: the reference the counter is checked against. */
export function referenceCount(text: string): number {
  return reference().encode_ordinary(text).length;
}

const built = new Map<number, string>();

/**
 * A realistic text (numbered log lines) of exactly `tokens` tokens under o200k_base: as many
 * lines as fit (binary search), then single words fill the rest. Checked against the reference encoder.
 */
export function textWithTokens(tokens: number): string {
  const cached = built.get(tokens);
  if (cached !== undefined) return cached;
  const lines = (n: number) =>
    Array.from({ length: n }, (_, i) => `[${String(i).padStart(5, '0')}] build step ok: compiled src/module-${i}.ts`).join('\n');
  let low = 0;
  let high = Math.ceil(tokens / 5) + 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (referenceCount(lines(mid)) <= tokens - 8) low = mid;
    else high = mid - 1;
  }
  let text = lines(low);
  while (referenceCount(text) < tokens) text += ' ok';
  const final = referenceCount(text);
  if (final !== tokens) throw new Error(`could not build a text of exactly ${tokens} tokens (got ${final})`);
  built.set(tokens, text);
  return text;
}
