import { describe, expect, it } from 'vitest';
import { createToolIndex, type ToolIndexEntry } from './index.js';
import { compactedNames } from './names.js';
import { prerequisiteLookups } from './prerequisites.js';
import { deletionTermsRead, UnknownWords } from './unknown-words.js';

// After `tools/list_changed` the index is derived (replaceServer). Its lazy lookup tables (one-edit
// typo corrections, tools named as identifiers) must come from the index it was derived from, read
// again only for the changed server's tools: built afresh they cost a pass over the whole catalogue on the
// first search after every change (about 20 ms each at 10,000 tools).

const tool = (server: string, name: string, description: string): ToolIndexEntry => ({
  server,
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
});

// Eight servers of forty tools: [name word, what it fetches].
const kinds = [
  ['weather', 'weather forecast'],
  ['invoice', 'invoice total'],
  ['ticket', 'support ticket'],
  ['calendar', 'calendar event'],
] as const;
const catalog: ToolIndexEntry[] = Array.from({ length: 8 }, (_, s) =>
  Array.from({ length: 40 }, (_, i) => {
    const [word, what] = kinds[i % 4] as (typeof kinds)[number];
    return tool(`server${s}`, `get_${word}_${s}_${i}`, `Fetches the ${what} number ${s}x${i} for a customer`);
  }),
).flat();

// server3 comes back with its tools and two new ones whose words the catalogue has not seen.
const server3 = [
  ...catalog.filter((t) => t.server === 'server3'),
  tool('server3', 'translate_paragraph', 'Translates a paragraph into another language'),
  tool('server3', 'summarize_transcript', 'Summarizes a meeting transcript'),
];
const after = [...catalog.filter((t) => t.server !== 'server3'), ...server3];

const queries = [
  'wether forcast', // typos of old words
  'translte a paragraf', // typos of new words
  'summarise the transcrpt of my meeting',
  'call get_weather_3_0 and summarize_transcript', // identifiers, old and new
  'use server3 to fetch an invoce',
];

describe('indexes derived after list_changed', () => {
  it('correct typos and find named tools exactly as a fresh build of the same catalogue', () => {
    const base = createToolIndex(catalog);
    for (const q of queries) base.search(q); // the base builds its tables
    const derived = base.replaceServer('server3', server3);
    const fresh = createToolIndex(after);
    for (const q of queries) expect(derived.search(q, { limit: 8 }), q).toEqual(fresh.search(q, { limit: 8 }));
  });

  it('read only the new tools into their typo table and name table', () => {
    const base = createToolIndex(catalog);
    for (const q of queries) base.search(q);
    const terms = deletionTermsRead();
    const names = compactedNames();
    const derived = base.replaceServer('server3', server3);
    for (const q of queries) derived.search(q);
    // New terms: translat, paragraph, summar, transcript, meet, languag, anoth… (a handful, not hundreds).
    expect(deletionTermsRead() - terms).toBeGreaterThan(0);
    expect(deletionTermsRead() - terms).toBeLessThan(15);
    // Names: only the changed server's tools (its forty, re-listed, and the two new ones).
    expect(compactedNames() - names).toBe(server3.length);
  });

  it('build their tables afresh when the index they came from never built them', () => {
    const base = createToolIndex(catalog);
    const names = compactedNames();
    const derived = base.replaceServer('server3', server3);
    derived.search('call get_weather_3_0');
    expect(compactedNames() - names).toBe(after.length);
  });
});

describe('UnknownWords derived from another', () => {
  const isWord = () => false;

  it('finds one-edit neighbours among inherited and new terms, and only its own', () => {
    const parentTerms = ['weather', 'invoice', 'ticket', 'forecast', 'customer', 'support', 'number', 'fetch'];
    const parent = new UnknownWords(parentTerms, isWord);
    expect(parent.near('wether')).toEqual([0]);
    const child = new UnknownWords([...parentTerms, 'paragraph'], isWord, parent);
    const before = deletionTermsRead();
    expect(child.near('paragrap')).toEqual([8]);
    expect(child.near('invoce')).toEqual([1]);
    expect(deletionTermsRead() - before).toBe(1);
    // A sibling derived from the same parent has another word at id 8: neither sees the other's.
    const sibling = new UnknownWords([...parentTerms, 'calendar'], isWord, parent);
    expect(sibling.near('paragrap')).toEqual([]);
    expect(sibling.near('calender')).toEqual([8]);
    expect(child.near('calender')).toEqual([]);
  });

  it('rebuilds in full once the inherited table covers too little of the vocabulary', () => {
    const parent = new UnknownWords(['weather', 'invoice'], isWord);
    parent.near('wether');
    const terms = ['weather', 'invoice', 'paragraph', 'calendar', 'transcript', 'language'];
    const before = deletionTermsRead();
    const child = new UnknownWords(terms, isWord, parent);
    expect(child.near('languag')).toEqual([5]);
    expect(child.near('wether')).toEqual([0]);
    expect(deletionTermsRead() - before).toBe(terms.length);
  });
});

describe('ToolIndex.warmUp', () => {
  it('builds the typo and name tables, so a first search with a typo or an identifier builds none', () => {
    const index = createToolIndex(catalog);
    index.warmUp();
    const terms = deletionTermsRead();
    const names = compactedNames();
    expect(index.search('wether forcast').length).toBeGreaterThan(0);
    expect(index.search('call get_weather_3_0')[0]?.name).toBe('get_weather_3_0');
    expect(deletionTermsRead()).toBe(terms);
    expect(compactedNames()).toBe(names);
  });
});

// Prerequisite links (required parameter → the sibling that produces it) are found per server, so an
// index derived after one server's list_changed keeps the other servers' links and finds only the
// changed server's.
const schema = (...required: string[]) => ({
  type: 'object',
  properties: Object.fromEntries(required.map((p) => [p, { type: 'string' }])),
  required,
});
// [server, name, description, required parameters]
const linkedRows: [string, string, string, string[]][] = [
  ['reminders', 'get_user_token', 'Log in with a username and password.', ['username', 'password']],
  ['reminders', 'add_reminder', 'Add a reminder at a given time.', ['token', 'time']],
  ['chat', 'list_channels', 'All channels of the workspace.', []],
  ['chat', 'post_message', 'Post a message.', ['channel_id', 'text']],
  ['drive', 'list_folders', 'Folders of the drive.', []],
  ['drive', 'share_link', 'A public link to a document.', ['document_id']],
];
const linked: ToolIndexEntry[] = linkedRows.map(([server, name, description, required]) => ({
  server,
  name,
  description,
  inputSchema: schema(...required),
}));
// drive comes back with a tool that needs a folder.
const driveAgain: ToolIndexEntry[] = [
  ...linked.filter((t) => t.server === 'drive'),
  { server: 'drive', name: 'upload_file', description: 'Upload a file.', inputSchema: schema('folder_id', 'file') },
];
const linkedAfter = [...linked.filter((t) => t.server !== 'drive'), ...driveAgain];
const linkQueries = ['remind me to call mom at five', 'post hello to everyone', 'upload the quarterly report'];

describe('prerequisite links of derived indexes', () => {
  it('rank as in a fresh build of the same catalogue, the producers right after their consumers', () => {
    const derived = createToolIndex(linked).replaceServer('drive', driveAgain);
    const fresh = createToolIndex(linkedAfter);
    for (const q of linkQueries) expect(derived.search(q, { limit: 4 }), q).toEqual(fresh.search(q, { limit: 4 }));
    const top2 = (q: string) => derived.search(q, { limit: 2 }).map((h) => h.name);
    expect(top2('remind me to call mom at five')).toEqual(['add_reminder', 'get_user_token']);
    expect(top2('post hello to everyone')).toEqual(['post_message', 'list_channels']);
    expect(top2('upload the quarterly report')).toEqual(['upload_file', 'list_folders']);
  });

  it('resolve only the changed server’s required parameters', () => {
    const base = createToolIndex(linked);
    const before = prerequisiteLookups();
    base.replaceServer('drive', driveAgain);
    // drive's distinct required parameters: document_id, folder_id, file.
    expect(prerequisiteLookups() - before).toBe(3);
  });
});
