import { describe, expect, it } from 'vitest';
import { buildBm25f } from './bm25f.js';
import { createToolIndex, type ToolIndexEntry } from './index.js';
import { DEFAULT_TUNING } from './lexical-ranker.js';
import { CatalogueNames } from './names.js';
import { buildServerDocuments } from './server-documents.js';

const obj = { type: 'object', properties: {} };
// The request's words are spread over the "speech" server's tools; the "video" server has one tool
// that matches two of them ("meeting recordings"), so its best sibling outscores any speech tool.
const catalog: ToolIndexEntry[] = [
  { server: 'video', name: 'video_transcribe', description: 'Transcribe the speech of a video file to text.', inputSchema: obj },
  {
    server: 'video',
    name: 'video_meeting_recordings',
    description: 'List the recordings of past video meetings.',
    inputSchema: obj,
  },
  { server: 'video', name: 'video_trim', description: 'Trim a video file.', inputSchema: obj },
  { server: 'speech', name: 'speech_transcribe', description: 'Transcribe speech to text.', inputSchema: obj },
  { server: 'speech', name: 'speech_load_audio', description: 'Load an audio file.', inputSchema: obj },
  { server: 'speech', name: 'speech_meeting_minutes', description: 'Write the minutes of a meeting.', inputSchema: obj },
  { server: 'speech', name: 'speech_recordings', description: 'List audio recordings.', inputSchema: obj },
  { server: 'mail', name: 'mail_send', description: 'Send an email.', inputSchema: obj },
];
const request = 'Transcribe the audio recordings of our meeting';

const rankOf = (names: string[], name: string): number => names.indexOf(name);

function textsOf(entries: ToolIndexEntry[]) {
  return entries.map((e) => ({ name: e.name, server: e.server ?? '', description: e.description ?? '', params: '' }));
}

describe('server documents (a server’s tools read as one document)', () => {
  it('lift the tool of the server that holds the whole request over a same-scoring tool of another', () => {
    const ranked = (tuning: Partial<typeof DEFAULT_TUNING>) =>
      createToolIndex(catalog, { tuning })
        .search(request, { limit: 8 })
        .map((h) => h.name);
    const on = ranked({});
    const off = ranked({ serverDocumentShare: 0 });
    // Without them the video transcriber wins on its sibling ("meeting recordings")...
    expect(rankOf(off, 'video_transcribe')).toBeLessThan(rankOf(off, 'speech_transcribe'));
    // ...with them the speech server, which holds transcribe, audio, recordings and meeting, does.
    expect(rankOf(on, 'speech_transcribe')).toBeLessThan(rankOf(on, 'video_transcribe'));
    expect(on).not.toContain('mail_send');
  });

  it('score the union of a server’s terms, start from zero after reset, and skip one-server catalogues', () => {
    const texts = textsOf(catalog);
    const ix = buildBm25f(texts, DEFAULT_TUNING);
    const names = new CatalogueNames(texts);
    const docs = buildServerDocuments(ix, names, { k1: 3, b: 0.75 });
    expect(docs).toBeDefined();
    const id = (w: string) => ix.vocab.get(w) as number;
    const speech = names.serverOf[3] as number;
    const video = names.serverOf[0] as number;
    const mail = names.serverOf[7] as number;
    // "audio" is in two speech tools and nowhere else: only speech scores.
    const best = docs?.score([id('audio')], [1]) ?? 0;
    expect(best).toBeGreaterThan(0);
    expect(docs?.scores[speech]).toBe(best);
    expect(docs?.scores[video]).toBe(0);
    docs?.reset();
    expect(docs?.scores[speech]).toBe(0);
    // A zero weight scores nothing; after reset another term starts from zero.
    expect(docs?.score([id('transcrib'), id('audio')], [0, 0])).toBe(0);
    docs?.reset();
    expect(docs?.score([id('send')], [1])).toBeGreaterThan(0);
    expect(docs?.scores[mail]).toBeGreaterThan(0);
    expect(docs?.scores[speech]).toBe(0);
    docs?.reset();

    const one = textsOf(catalog.map((e) => ({ ...e, server: 'all' })));
    expect(buildServerDocuments(buildBm25f(one, DEFAULT_TUNING), new CatalogueNames(one), { k1: 3, b: 0.75 })).toBeUndefined();
  });
});

describe('server evidence needs two servers', () => {
  const tool = (server: string, name: string, description: string, required: string[]): ToolIndexEntry => ({
    name,
    server,
    description,
    inputSchema: { type: 'object', properties: Object.fromEntries(required.map((p) => [p, { type: 'string' }])), required },
  });
  const bank = (server: string) => [
    tool(server, 'GetUserToken', 'Log in with a username and password.', ['username', 'password']),
    tool(server, 'AddReminder', 'Add a reminder for the user at a given time.', ['token', 'content', 'time']),
    tool(server, 'QueryWeather', 'Today’s weather for a city, and a weather alert when one is issued.', ['city']),
    tool(server, 'QueryStock', 'Latest stock price of a company.', ['symbol']),
  ];

  it('on a one-server catalogue the server shares change no rank and no score', () => {
    // A server's share would add one constant to every tool of a one-server catalogue: it would rank
    // nothing by itself, but it weakened the score-relative prerequisite lift (GetUserToken here).
    const query = 'Remind me to check the weather alert for Paris at five';
    const one = createToolIndex(bank('bank')).search(query, { limit: 4 });
    const none = createToolIndex(bank('bank'), { tuning: { siblingShare: 0, serverDocumentShare: 0 } }).search(query, {
      limit: 4,
    });
    // Two servers: the shares do change scores (the test below would fail if they never applied).
    const two = [...bank('bank'), tool('mail', 'SendMail', 'Send an email.', ['to'])];
    const twoOff = createToolIndex(two, { tuning: { siblingShare: 0, serverDocumentShare: 0 } }).search(query, { limit: 1 });
    expect(createToolIndex(two).search(query, { limit: 1 })[0]?.score).toBeGreaterThan(1.5 * (twoOff[0]?.score as number));
    expect(one.map((h) => h.name)).toEqual(none.map((h) => h.name));
    expect(one.map((h) => h.name)).toContain('GetUserToken');
    one.forEach((h, i) => expect(h.score).toBeCloseTo(none[i]?.score as number, 10));
  });
});
