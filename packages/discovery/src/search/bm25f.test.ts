import { describe, expect, it } from 'vitest';
import { buildBm25f } from './bm25f.js';
import { DEFAULT_TUNING } from './lexical-ranker.js';

const filler = Array.from({ length: 300 }, (_, i) => `detail${i % 60}`).join(' ');
const docs = [
  { name: 'post_message', server: 'chat', description: 'Send a message to a channel.', params: '' },
  { name: 'billing_tool', server: 'books', description: `${filler} It can send an invoice. ${filler}`, params: '' },
  ...Array.from({ length: 30 }, (_, i) => ({
    name: `read_record_${i}`,
    server: 'archive',
    description: `Reads record ${i} of the archive.`,
    params: '',
  })),
];

/** Impact of `term` in the posting list of tool `doc`, with that term's idf. */
function impact(tuning: typeof DEFAULT_TUNING, term: string, doc: number): { impact: number; idf: number } {
  const ix = buildBm25f(docs, tuning);
  const t = ix.vocab.get(term);
  if (t === undefined) throw new Error(`no term ${term}`);
  for (let i = ix.postStart[t] as number; i < (ix.postStart[t + 1] as number); i++) {
    if (ix.postDoc[i] === doc) return { impact: ix.postImpact[i] as number, idf: ix.idf[t] as number };
  }
  throw new Error(`tool ${doc} has no posting for ${term}`);
}

describe('BM25F with the BM25+ lower bound', () => {
  it('a word named once in a very long description keeps at least delta × its idf', () => {
    expect(DEFAULT_TUNING.delta).toBe(0.25);
    const plain = impact({ ...DEFAULT_TUNING, delta: 0 }, 'invoic', 1);
    const plus = impact(DEFAULT_TUNING, 'invoic', 1);
    // Plain BM25 all but erases it (a 600-word field among 5-word ones)...
    expect(plain.impact).toBeLessThan(0.25 * plain.idf);
    // ...BM25+ adds the floor on top, to every posting alike.
    expect(plus.impact).toBeCloseTo(plain.impact + 0.25 * plain.idf, 12);
    const short = impact(DEFAULT_TUNING, 'send', 0);
    expect(short.impact).toBeCloseTo(impact({ ...DEFAULT_TUNING, delta: 0 }, 'send', 0).impact + 0.25 * short.idf, 12);
  });
});
