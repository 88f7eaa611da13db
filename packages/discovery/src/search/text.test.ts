import { describe, expect, it } from 'vitest';
import { withinOneEdit } from './fuzzy.js';
import { segment } from './segment.js';
import { compoundIdentifiers, queryWords, splitClauses, splitWords, stem, terms } from './text.js';

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

  it('returns nothing for punctuation only', () => {
    expect(splitWords('  --- !!! ')).toEqual([]);
  });
});

describe('stem', () => {
  it('maps inflections of one word together', () => {
    const forms = ['create', 'creates', 'created', 'creating', 'creation', 'creator'].map(stem);
    expect(new Set(forms).size).toBe(1);
    expect(stem('countries')).toBe(stem('country'));
    expect(stem('searches')).toBe(stem('search'));
  });

  it('leaves short words and numbers alone', () => {
    expect(stem('bus')).toBe('bus');
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

  it('splits requests into clauses', () => {
    expect(splitClauses('Get the DNS records and the Whois details. Also, list domains')).toEqual([
      'Get the DNS records',
      'the Whois details',
      ', list domains',
    ]);
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

  it('segment splits run-together words into known words', () => {
    const known = new Set(['bulk', 'generate', 'guids', 'get', 'weather']);
    const isKnown = (w: string) => known.has(w);
    expect(segment('bulkgenerateguids', isKnown)).toEqual(['bulk', 'generate', 'guids']);
    expect(segment('getweather', isKnown)).toEqual(['get', 'weather']);
    expect(segment('weather', isKnown)).toBeUndefined();
    expect(segment('getxyzweather', isKnown)).toBeUndefined();
  });
});
