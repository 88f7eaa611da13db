import { get_encoding } from 'tiktoken';

/** Counts with a raw, unsliced encoder: the reference the counter is checked against. */
export function referenceCount(text: string): number {
  const encoder = get_encoding('o200k_base');
  try {
    return encoder.encode_ordinary(text).length;
  } finally {
    encoder.free();
  }
}

/**
 * A realistic text (numbered log lines) of exactly `tokens` tokens under o200k_base: lines are
 * added while they fit, then single words fill the rest. Checked against the reference encoder.
 */
export function textWithTokens(tokens: number): string {
  const encoder = get_encoding('o200k_base');
  try {
    const count = (s: string) => encoder.encode_ordinary(s).length;
    let text = '';
    let line = 0;
    while (true) {
      const next = `${text}${line === 0 ? '' : '\n'}[${String(line).padStart(5, '0')}] build step ok: compiled src/module-${line}.ts`;
      if (count(next) > tokens - 8) break;
      text = next;
      line++;
    }
    while (count(text) < tokens) text += ' ok';
    const final = count(text);
    if (final !== tokens) throw new Error(`could not build a text of exactly ${tokens} tokens (got ${final})`);
    return text;
  } finally {
    encoder.free();
  }
}
