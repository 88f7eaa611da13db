import { describe, expect, it } from 'vitest';
import { TermReader } from './term-reader.js';
import { pieceHash, scanAsciiWords, splitWords } from './text.js';
import { tokenizeTools, Vocabulary } from './tool-terms.js';

/** Seeded random strings over `alphabet` (by code point), 1–`maxLength` characters each. */
function randomTexts(alphabet: string, count: number, maxLength: number): string[] {
  const chars = [...alphabet];
  let seed = 7;
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    let text = '';
    for (let i = 0, len = 1 + Math.floor(next() * maxLength); i < len; i++) text += chars[Math.floor(next() * chars.length)];
    out.push(text);
  }
  return out;
}

// The split rule stated as regexes over the whole text (folded when it has a non-ASCII character):
// the definition the engine's faster paths (ASCII scanning, run by run reading) must agree with.
const TOKEN = /[\p{L}\p{N}]+/gu;
const INNER = /\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})|\p{N}+|[\p{L}\p{M}]+/gu;
function definedWords(text: string): string[] {
  const folded = /[^\x00-\x7f]/.test(text) ? text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : text;
  const out: string[] = [];
  for (const token of folded.matchAll(TOKEN)) for (const piece of token[0].matchAll(INNER)) out.push(piece[0].toLowerCase());
  return out;
}

/** The ids of the defined words in `vocabulary` (stop words dropped): what the reader must append. */
function expectedIds(text: string, vocabulary: Vocabulary): number[] {
  return definedWords(text)
    .map((word) => vocabulary.idOf(word))
    .filter((id) => id >= 0);
}

describe('TermReader', () => {
  it('reads every text as the split rule defines, ASCII or not (seeded random text)', () => {
    // Separators, camelCase, digits, diacritics (precomposed and combining), compatibility forms that
    // decompose into ASCII ("℀" → a/c, "ﬁ" → fi, "½"), CJK, a lone surrogate, and a stop word ("the").
    const texts = [
      ...randomTexts('abcXYZ019 _-./(é)ü\u0301日℀ﬁ½\ud800ΩÅ’—the', 20_000, 24),
      // Long, mostly ASCII text: non-ASCII runs near each other and far apart (the reader joins near ones).
      ...randomTexts('abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 _-.,é日’', 2_000, 400),
    ];
    const vocabulary = new Vocabulary();
    const reader = new TermReader(vocabulary);
    for (const text of texts) {
      const from = reader.count;
      reader.read(text);
      const got = Array.from(reader.ids.subarray(from, reader.count));
      expect(got, JSON.stringify(text)).toEqual(expectedIds(text, vocabulary));
      expect(splitWords(text), JSON.stringify(text)).toEqual(definedWords(text));
    }
    // The repeated-text path (a memo of ids per string) reads alike, a second time included.
    for (const text of texts.slice(0, 2_000)) {
      for (let round = 0; round < 2; round++) {
        const from = reader.count;
        reader.readRepeated(text);
        expect(Array.from(reader.ids.subarray(from, reader.count)), JSON.stringify(text)).toEqual(expectedIds(text, vocabulary));
      }
    }
  });

  it('keeps the run-together name words of a text with non-ASCII characters', () => {
    const reader = new TermReader(new Vocabulary());
    const long: string[] = [];
    reader.read('café getweatherforecast_searchrestaurants', long);
    expect(long).toEqual(['getweatherforecast', 'searchrestaurants']);
  });
});

describe('scanAsciiWords', () => {
  it('reports each piece with the hash of its lower-cased characters', () => {
    for (const text of randomTexts('abcXYZ019 _-.', 5_000, 20)) {
      scanAsciiWords(text, (start, end, hash) => {
        expect(hash, JSON.stringify(text)).toBe(pieceHash(text.slice(start, end).toLowerCase()));
      });
    }
  });
});

describe('tokenizeTools', () => {
  it('reads parameter parts one by one exactly as their joined text', () => {
    const paramText = {
      names: ['city_name', 'größe', 'unitSystem'],
      descriptions: ['Ville (é) où chercher', 'The page number', 'km’s or mi'],
      values: [],
    };
    const params = [...paramText.names, ...paramText.descriptions].join('\n');
    const doc = { name: 'get_weather', server: 'météo', description: 'Weather — forecast', params };
    // Terms as text: ids are numbered by first appearance in each vocabulary.
    const termsOf = (withParts: boolean): string[][] => {
      const vocabulary = new Vocabulary();
      const [tool] = tokenizeTools([withParts ? { ...doc, paramText } : doc], vocabulary, false);
      const tokens = Array.from(tool?.tokens ?? [], (id) => vocabulary.terms[id] as string);
      const ends = [0, ...Array.from(tool?.fieldEnd ?? [])];
      return ends.slice(1).map((end, f) => tokens.slice(ends[f], end));
    };
    const parts = termsOf(true);
    expect(parts).toEqual(termsOf(false));
    expect(parts[3]?.length).toBeGreaterThan(8);
  });
});
