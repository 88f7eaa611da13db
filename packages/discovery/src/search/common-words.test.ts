import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commonWordRank, discountCommonWords } from './common-words.js';
import { createToolIndex, DEFAULT_TUNING, type ToolIndexEntry } from './index.js';
import { queryWords } from './text.js';

// Chatter that makes a request long: ordinary words, none of them in the catalogue below.
const chatter = (sentences: number): string =>
  Array.from(
    { length: sentences },
    () => 'Honestly my boss keeps asking about this before the meeting on Friday and the whole team is waiting for an answer.',
  ).join(' ');

const weights = (request: string): Map<string, number> => {
  const words = queryWords(request, 1);
  discountCommonWords([words], DEFAULT_TUNING.commonWords, DEFAULT_TUNING.commonWordsHalfLength);
  return new Map(words.map((w) => [w.word, w.weight]));
};

describe('commonWordRank', () => {
  it('ranks the most frequent English words, most frequent first', () => {
    expect(commonWordRank('the')).toBe(1);
    expect(commonWordRank('games')).toBeGreaterThan(commonWordRank('the'));
    expect(commonWordRank('candlesticks')).toBe(0);
    expect(commonWordRank('Games')).toBe(0); // query words are lower-case already
  });

  it('is generated from the published list (scripts/common-words.mjs --check)', () => {
    const script = fileURLToPath(new URL('../../scripts/common-words.mjs', import.meta.url));
    expect(() => execFileSync(process.execPath, [script, '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});

describe('discountCommonWords', () => {
  it('discounts common words, the more the longer the request, and leaves rare words alone', () => {
    const short = weights('games and candlesticks');
    const long = weights(`${chatter(8)} games and candlesticks`);
    expect(short.get('candlesticks')).toBe(1);
    expect(long.get('candlesticks')).toBe(1);
    expect(short.get('games')).toBeLessThan(1);
    expect(long.get('games')).toBeLessThan(short.get('games') as number);
  });

  it('keeps the weights a request had (quoted words stay at their share)', () => {
    const words = queryWords('find "games" here', 0.5);
    discountCommonWords([words], 0, 60);
    expect(words.map((w) => w.weight)).toEqual([1, 0.5, 1]);
  });
});

// Two tools that match a request equally (one word each, same idf, same field lengths): in a long
// request, the one matched by the rare word comes first.
// [server, name, description]
const catalog: ToolIndexEntry[] = (
  [
    ['store', 'games_list', 'List games.'],
    ['market', 'candlesticks_list', 'List candlesticks.'],
    ['mail', 'send_mail', 'Send an email.'],
  ] as const
).map(([server, name, description]) => ({ server, name, description, inputSchema: { type: 'object', properties: {} } }));

describe('common words in the ranking', () => {
  const request = `${chatter(8)} Something about games came up, but what I need are the candlesticks.`;
  const hits = (tuning: { commonWords?: number }) => createToolIndex(catalog, { tuning }).search(request, { limit: 3 });

  it('a rare word outweighs a common one in a long request', () => {
    const [first, second] = hits({});
    expect(first?.name).toBe('candlesticks_list');
    expect(second?.name).toBe('games_list');
    expect(first?.score).toBeGreaterThan(second?.score as number);
  });

  it('without the discount the two tie', () => {
    const [first, second] = hits({ commonWords: 0 });
    expect(first?.score).toBeCloseTo(second?.score as number, 9);
  });
});
