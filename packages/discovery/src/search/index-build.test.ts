import { describe, expect, it } from 'vitest';
import { tokenizeCatalog } from './catalog-tokens.js';
import { F_DESC, F_NAME, F_PARAMS, F_SERVER } from './fields.js';
import { NameKeys } from './name-keys.js';
import { schemaText } from './schema-text.js';
import { isStopWord, splitWords, stem } from './text.js';
import type { ToolIndexEntry } from './types.js';
import { hashWord, scanWordSpans, SPAN, wordSpans } from './word-spans.js';
import { WordTable } from './word-table.js';

// Identifier shapes the scanner has special cases for (case runs, digits, separators).
const TRICKY = ['getHTTPResponse_v2', 'XMLHttpRequest', 'ABCDef gHIj', 'mp3s2go', 'fetch-movies.for/abir82', 'a', 'A1b2C3', '  --- !! ', 'IPv6Address', ''];

describe('scanWordSpans', () => {
  it('finds the pieces splitWords returns, with the hash of each lower-cased piece', () => {
    for (const text of TRICKY) {
      const count = scanWordSpans(text, true);
      const spans = wordSpans();
      const pieces: string[] = [];
      for (let k = 0; k < count; k++) {
        const piece = text.slice(spans[SPAN * k], spans[SPAN * k + 1]).toLowerCase();
        pieces.push(piece);
        expect(spans[SPAN * k + 2]).toBe(hashWord(piece));
      }
      expect(pieces).toEqual(splitWords(text));
    }
  });

  it('reports non-ASCII text in ASCII-only mode', () => {
    expect(scanWordSpans('Pokémon', true)).toBe(-1);
    expect(scanWordSpans('Pokémon')).toBe(1);
  });
});

describe('WordTable', () => {
  it('finds words by string and by a span of mixed-case text, across growth', () => {
    const table = new WordTable();
    const words = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}x`);
    const ids = words.map((w, i) => table.add(w, i * 2));
    expect(table.size).toBe(5000);
    expect(ids).toEqual(words.map((_, i) => i));
    expect(words.map((w) => table.find(w))).toEqual(ids);
    expect(Array.from(table.values.subarray(0, 5000))).toEqual(ids.map((i) => i * 2));
    const text = `some W1X and w${(4999).toString(36).toUpperCase()}X`;
    expect(table.findSpan(text, 5, 8, hashWord('w1x'))).toBe(1);
    const start = text.lastIndexOf('w');
    const word = `w${(4999).toString(36)}x`;
    expect(table.findSpan(text, start, text.length, hashWord(word))).toBe(4999);
    expect(table.find('missing')).toBe(-1);
    expect(table.find('w1')).toBe(-1);
    expect(table.findSpan(text, 0, 4, hashWord('some'))).toBe(-1);
  });
});

describe('tokenizeCatalog', () => {
  const catalog: ToolIndexEntry[] = [
    { name: 'github__createIssue', server: 'GitHub API', description: 'Creates an issue for the repos.', inputSchema: { type: 'object', properties: { repo_name: { type: 'string', description: 'Owner/name' } } } },
    { name: 'github__list_HTTPRoutes', server: 'GitHub API', description: 'Lists routes', inputSchema: { type: 'object', properties: { page: { type: 'number', title: 'Page' } } } },
    { name: 'games__pokédex', server: 'games', description: 'Look up a Pokémon in the Pokédex.', inputSchema: { type: 'object', properties: { naïve: { type: 'string', description: 'Café' } } } },
    { name: 'the_other_tool' },
  ];

  /** What the index must hold: each field's words through splitWords, minus stop words, stemmed. */
  function expectedStems(e: ToolIndexEntry): string[][] {
    const kept = (text: string) => splitWords(text).filter((w) => !isStopWord(w)).map(stem);
    const schema = schemaText(e.inputSchema);
    return [kept(e.name), kept(e.server ?? ''), kept(e.description ?? ''), [...schema.names, ...schema.descriptions].flatMap(kept)];
  }

  it('stores every field’s stemmed words in order, as splitWords + stem would', () => {
    const cat = tokenizeCatalog(catalog);
    catalog.forEach((e, d) => {
      const got: string[][] = [[], [], [], []];
      for (let i = cat.docStart[d]!; i < cat.docStart[d + 1]!; i++) got[cat.tokField[i]!]!.push(cat.vocabTerms[cat.tokTerm[i]!]!);
      const want = expectedStems(e);
      expect(got).toEqual(want);
      for (const f of [F_NAME, F_SERVER, F_DESC, F_PARAMS]) expect(cat.fieldLen[f]![d]).toBe(want[f]!.length);
    });
  });

  it('keeps the raw name words, stop words included, for name segmentation', () => {
    const cat = tokenizeCatalog(catalog);
    const raw = (d: number) => Array.from(cat.nameRaw.subarray(cat.nameRawStart[d], cat.nameRawStart[d + 1]), (e) => cat.words.words[e]);
    expect(raw(1)).toEqual(['github', 'list', 'http', 'routes']);
    expect(raw(3)).toEqual(['the', 'other', 'tool']);
  });

  it('groups servers and builds the regex text on demand', () => {
    const cat = tokenizeCatalog(catalog);
    expect(Array.from(cat.serverOf)).toEqual([0, 0, 1, -1]);
    expect(cat.serverDocs).toEqual([[0, 1], [2]]);
    const docs = cat.regexDocs();
    expect(docs[0]).toEqual({ name: 'github__createIssue', server: 'GitHub API', description: 'Creates an issue for the repos.', params: 'repo_name\nOwner/name' });
    expect(docs[3]).toEqual({ name: 'the_other_tool', server: '', description: '', params: '' });
    expect(cat.regexDocs()).toBe(docs);
  });
});

describe('NameKeys', () => {
  const keys = new NameKeys(['github__create_issue', 'createIssue', 'gitlab__Create-Issue', 'ab', 'Pokédex__Entrée', 'x__ab']);

  it('finds tools by compact name or by the part after the namespace, in catalog order', () => {
    expect(keys.docs('createissue')).toEqual([0, 1, 2]);
    expect(keys.docs('githubcreateissue')).toEqual([0]);
    expect(keys.docs(['pokedex', 'entree'].join(''))).toEqual([4]);
    expect(keys.docs('entree')).toEqual([4]);
  });

  it('ignores keys under four characters and unknown keys', () => {
    expect(keys.docs('ab')).toEqual([]);
    expect(keys.docs('xab')).toEqual([]);
    expect(keys.docs('deleteissue')).toEqual([]);
  });
});
