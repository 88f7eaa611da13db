import { describe, expect, it } from 'vitest';
import { createToolIndex, type ToolIndexEntry } from './index.js';
import type { DEFAULT_TUNING } from './lexical-ranker.js';
import { isContextClause, queryWords, splitClauses } from './text.js';

const clauses = (request: string) => splitClauses(request).map((c) => isContextClause(queryWords(c, 1)));

describe('isContextClause: a part that only describes the speaker', () => {
  it('is a first-person subject with a form of be or have, and no verb of wanting', () => {
    expect(clauses('We are a retailer in Spain. We need to understand the sentiment of our customers.')).toEqual([true, false]);
    expect(clauses("I'm a teacher with thirty pupils. Grade these essays.")).toEqual([true, false]);
    expect(clauses('I have a recorded meeting between several people; find who spoke when.')).toEqual([true, false]);
    expect(clauses("We've two hundred employees. Schedule their shifts")).toEqual([true, false]);
    // Only the opening counts: "Our website is slow" does not open with a subject and its verb.
    expect(clauses('Our website is slow. Profile its pages')).toEqual([false, false]);
  });

  it('is not a request, however it opens', () => {
    for (const request of [
      "I'm looking for a hotel in Paris",
      'We would like to translate a contract',
      'I am in need of a weather forecast',
      'We want the stock price of Apple',
      'Get the weather in Tokyo',
      'Can you find the anime with ID 87654?',
      'I need to order three loaves of bread',
      'My',
      '',
    ])
      expect(isContextClause(queryWords(request, 1)), request).toBe(false);
  });
});

// The request's first sentence only says who is asking, and its words ("news agency") match a tool
// better than the second sentence's words match the tool asked for. As a clause of its own, the first
// sentence lifts its best tool as high as the real request's.
// [server, name, description]
const catalog: ToolIndexEntry[] = (
  [
    ['media', 'agency_news_feed', 'Latest news of a news agency and its reporters.'],
    ['text', 'summarize_text', 'Summarize long articles.'],
    ['text', 'translate_text', 'Translate a text into another language.'],
    ['media', 'upload_photo', 'Upload a photo to the photo library.'],
    ['mail', 'send_mail', 'Send an email to a list of people.'],
  ] as const
).map(([server, name, description]) => ({ server, name, description, inputSchema: { type: 'object', properties: {} } }));
const request = 'We are a news agency with many reporters. Summarize long articles.';

describe('context clauses in the ranking', () => {
  const ranked = (tuning: Partial<typeof DEFAULT_TUNING>) =>
    createToolIndex(catalog, { tuning })
      .search(request, { limit: 5 })
      .map((h) => h.name);

  it('a sentence about the speaker does not lift its best tool as high as the request does', () => {
    expect(ranked({})[0]).toBe('summarize_text');
    // Counted as a request of its own (the old rule), the news feed comes first.
    expect(ranked({ contextClauses: 1 })[0]).toBe('agency_news_feed');
  });

  it('its words still count in the whole request', () => {
    expect(ranked({})).toContain('agency_news_feed');
    expect(ranked({ contextClauses: 0 })).toContain('agency_news_feed');
  });
});
