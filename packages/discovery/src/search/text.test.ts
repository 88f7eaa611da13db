import { describe, expect, it } from 'vitest';
import { UnknownWords, withinOneEdit } from './unknown-words.js';
import { compoundIdentifiers, joinListItems, queryWords, splitClauses, splitWords, stem, terms } from './text.js';

describe('splitWords', () => {
  it('splits identifiers at case changes, separators and digits', () => {
    expect(splitWords('getHTTPResponse_v2')).toEqual(['get', 'http', 'response', 'v', '2']);
    expect(splitWords('fetch-movies.for/abir82')).toEqual(['fetch', 'movies', 'for', 'abir', '82']);
    expect(splitWords('XMLHttpRequest')).toEqual(['xml', 'http', 'request']);
  });

  it('folds diacritics and keeps other scripts', () => {
    expect(splitWords('Pokémon Café')).toEqual(['pokemon', 'cafe']);
    expect(splitWords('日本語 テスト')).toEqual(['日本語', 'テスト']);
  });

  it('splits a digit run from the lower-case word after it, with no empty piece', () => {
    // The step back that gives "HTTPResponse" → HTTP | Response belongs after a capital run only.
    expect(splitWords('mp3s v2beta 12ab')).toEqual(['mp', '3', 's', 'v', '2', 'beta', '12', 'ab']);
    expect(splitWords('getHTTPResponse2x')).toEqual(['get', 'http', 'response', '2', 'x']);
    // ASCII text and text with a non-ASCII character split a token alike.
    expect(splitWords('é v2beta mp3s').slice(1)).toEqual(splitWords('v2beta mp3s'));
  });

  it('never yields an empty or upper-case piece, and splits ASCII alike beside non-ASCII text (seeded random text)', () => {
    // By code point: a lone surrogate and a combining mark are characters of their own here.
    const alphabet = [...'abcxABQZ079_- .éü日\ud800\u0301'];
    let seed = 42;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    for (let k = 0; k < 20_000; k++) {
      let text = '';
      for (let i = 0, len = 1 + Math.floor(next() * 12); i < len; i++) text += alphabet[Math.floor(next() * alphabet.length)];
      for (const piece of splitWords(text))
        expect(piece.length > 0 && piece === piece.toLowerCase(), JSON.stringify(text)).toBe(true);
      const ascii = text.replace(/[^\x00-\x7f]/g, ' ');
      expect(splitWords(`é ${ascii}`).slice(1), JSON.stringify(ascii)).toEqual(splitWords(ascii));
    }
  });

  it('splits the ASCII words of non-ASCII text as the regex pieces do', () => {
    // Text with any non-ASCII character is folded and split by regex; its ASCII tokens take a loop that must agree.
    const inner = /\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})|\p{N}+|[\p{L}\p{M}]+/gu;
    for (const token of ['getHTTPResponse2', 'XMLHttpRequest', 'ABc', 'aB1', '12ab', 'A', 'iOS15Beta', 'x9Y']) {
      const expected = [...token.matchAll(inner)].map((m) => m[0].toLowerCase());
      expect(splitWords(`é ${token}`)).toEqual(['e', ...expected]);
    }
  });

  it('returns nothing for punctuation only', () => {
    expect(splitWords('  --- !!! ')).toEqual([]);
  });
});

describe('stem', () => {
  it('maps inflections of one word together', () => {
    // Porter: derivations such as "creation" keep their own stem; inflections meet.
    const forms = ['create', 'creates', 'created', 'creating'].map(stem);
    expect(new Set(forms).size).toBe(1);
    expect(stem('countries')).toBe(stem('country'));
    expect(stem('searches')).toBe(stem('search'));
  });

  it('leaves two-letter words and words with digits alone', () => {
    expect(stem('os')).toBe('os');
    expect(stem('mp3s')).toBe('mp3s');
  });
});

describe('query parsing', () => {
  it('drops stop words', () => {
    expect(terms('Can you get me the weather?')).toEqual(['get', 'weather']);
  });

  it('weights quoted values down, but not apostrophes', () => {
    const words = queryWords("I'm looking for 'Pulp Fiction' reviews", 0.5);
    expect(words.find((w) => w.word === 'pulp')?.weight).toBe(0.5);
    expect(words.find((w) => w.word === 'reviews')?.weight).toBe(1);
    expect(words.find((w) => w.word === 'looking')?.weight).toBe(1);
  });

  it('pairs double quotes, so an apostrophe inside them does not end the value', () => {
    const weightOf = (text: string, w: string): number[] =>
      queryWords(text, 0.5)
        .filter((x) => x.word === w)
        .map((x) => x.weight);
    const french =
      "Translate from French to English: \u201cLe syst\u00e8me est compos\u00e9 d'\u00e9coles et de coll\u00e8ges.\u201d";
    expect(weightOf(french, 'de')).toEqual([0.5]);
    expect(weightOf(french, 'colleges')).toEqual([0.5]); // accents folded
    expect(weightOf(french, 'translate')).toEqual([1]);
    expect(weightOf('Say "don\'t stop me now" please', 'stop')).toEqual([0.5]);
    expect(weightOf('Say "don\'t stop me now" please', 'please')).toEqual([1]);
    // Straight and curly double quotes close each other (common in typed text); a single quote still cannot hold an apostrophe.
    expect(weightOf('Find \u201cPulp Fiction" reviews', 'pulp')).toEqual([0.5]);
    expect(weightOf('Say "hello\u201d and "bye"', 'hello')).toEqual([0.5]);
    expect(weightOf("Find 'don't' and stop", 'stop')).toEqual([1]);
  });

  it('weights numbers standing alone down (values), not digits inside words', () => {
    const words = queryWords("anime 87654 at 192.168.1.1 on 2021-03-04, mp3 and v2, top 10, page '42'", 0.5, 0.5);
    const weightOf = (w: string): number[] => words.filter((x) => x.word === w).map((x) => x.weight);
    expect(weightOf('87654')).toEqual([0.5]);
    expect(weightOf('192')).toEqual([0.5]);
    expect(weightOf('2021')).toEqual([0.5]);
    expect(weightOf('10')).toEqual([0.5]);
    expect(weightOf('42')).toEqual([0.25]); // quoted and a number: both
    expect(weightOf('3')).toEqual([1]); // "mp3"
    expect(weightOf('2')).toEqual([1]); // "v2"
    expect(weightOf('anime')).toEqual([1]);
    // Same words in the same order as without the rule.
    expect(words.map((w) => w.word)).toEqual(
      queryWords("anime 87654 at 192.168.1.1 on 2021-03-04, mp3 and v2, top 10, page '42'", 0.5).map((w) => w.word),
    );
    expect(queryWords('top 10', 0.5).map((w) => w.weight)).toEqual([1, 1]);
  });

  it('splits requests into clauses', () => {
    expect(splitClauses('Get the DNS records and the Whois details. Also, list domains')).toEqual([
      'Get the DNS records',
      'the Whois details',
      ', list domains',
    ]);
  });

  it('keeps a one-word part with the part before it (a list item, not a request)', () => {
    const joined = (text: string): string[] =>
      joinListItems(splitClauses(text).map((c) => queryWords(c, 0.5))).map((ws) => ws.map((w) => w.word).join(' '));
    expect(joined('Get the regions of Japan, South Korea, and China. Also list the domains and 6')).toEqual([
      'get the regions of japan south korea china',
      'list the domains 6',
    ]);
    // A one-word first part has nothing to join: it stays.
    expect(joined('weather and translate this text')).toEqual(['weather', 'translate this text']);
  });

  it('finds compound identifiers', () => {
    expect(compoundIdentifiers('call get_weather or WhoIS, not plain words')).toEqual(['getweather', 'whois']);
  });
});

describe('typo and compound helpers', () => {
  it('withinOneEdit accepts one insert, delete, substitution or swap', () => {
    expect(withinOneEdit('weather', 'wether')).toBe(true);
    expect(withinOneEdit('search', 'serach')).toBe(true);
    expect(withinOneEdit('forecast', 'forcast')).toBe(true);
    expect(withinOneEdit('forecast', 'forxcast')).toBe(true);
    expect(withinOneEdit('forecast', 'fxrxcast')).toBe(false);
    expect(withinOneEdit('abc', 'abcde')).toBe(false);
  });

  it('splits run-together words into two or three catalogue words', () => {
    const known = new Set(['bulk', 'generate', 'guids', 'get', 'weather']);
    const words = new UnknownWords([], (w) => known.has(w));
    expect(words.split('bulkgenerateguids')).toEqual(['bulk', 'generate', 'guids']);
    expect(words.split('getweather')).toEqual(['get', 'weather']);
    expect(words.split('weather')).toBeUndefined();
    expect(words.split('getxyzweather')).toBeUndefined();
  });

  it('corrects one-edit typos against the catalogue terms only', () => {
    const words = new UnknownWords(['weather', 'forecast', 'calendar'], () => false);
    expect(words.near('wether')).toEqual([0]);
    expect(words.near('forcast')).toEqual([1]);
    expect(words.near('calandar')).toEqual([2]);
    expect(words.near('blorptangle')).toEqual([]);
    expect(words.near('wthr')).toEqual([]); // too short to correct safely
  });
});
