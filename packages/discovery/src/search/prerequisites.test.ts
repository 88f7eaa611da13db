import { describe, expect, it } from 'vitest';
import { buildBm25f, invertNameTerms } from './bm25f.js';
import { DEFAULT_TUNING } from './lexical-ranker.js';
import { CatalogueNames } from './names.js';
import { findPrerequisites } from './prerequisites.js';
import { requiredNames, schemaText } from './schema-text.js';
import { createToolIndex } from './tool-index.js';
import type { ToolIndexEntry } from './types.js';

const tool = (server: string, name: string, description: string, props: string[] = [], required = props): ToolIndexEntry => ({
  name,
  server,
  description,
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(props.map((p) => [p, { type: 'string' }])),
    required,
  },
});

const bank = [
  tool('bank', 'GetUserToken', 'Log in with a username and password.', ['username', 'password']),
  tool('bank', 'AddReminder', 'Add a reminder for the user at a given time.', ['token', 'content', 'time']),
  tool('bank', 'QueryWeather', 'Today’s weather for a city.', ['city']),
  tool('bank', 'QueryStock', 'Latest stock price of a company.', ['symbol']),
];

/** The links of a catalogue, found as the lexical ranker finds them. */
function linksOf(catalogue: readonly ToolIndexEntry[]) {
  const docs = catalogue.map((e) => ({
    name: e.name,
    server: e.server ?? '',
    description: e.description ?? '',
    params: '',
    paramText: schemaText(e.inputSchema),
    required: requiredNames(e.inputSchema),
  }));
  const ix = buildBm25f(docs, DEFAULT_TUNING);
  return findPrerequisites(docs, ix, new CatalogueNames(docs), invertNameTerms(ix));
}

const names = (index: ReturnType<typeof createToolIndex>, query: string, limit = 3): string[] =>
  index.search(query, { limit }).map((h) => h.name);

describe('prerequisite tools', () => {
  it('ranks the tool that produces a required value right after the tool that needs it', () => {
    // "token" is required by AddReminder; GetUserToken is the one sibling named by it.
    expect(names(createToolIndex(bank), 'remind me to call mom at five')).toEqual(['AddReminder', 'GetUserToken']);
    // The request shares no word with GetUserToken: without the link it is not found at all.
    expect(names(createToolIndex(bank, { tuning: { prerequisiteShare: 0 } }), 'remind me to call mom at five')).toEqual([
      'AddReminder',
    ]);
  });

  it('scores the producer at prerequisiteShare × the consumer, and keeps a better score of its own', () => {
    const [consumer, producer] = createToolIndex(bank).search('remind me to call mom at five', { limit: 2 });
    expect(producer!.score).toBeCloseTo(0.8 * consumer!.score, 10);
    const half = createToolIndex(bank, { tuning: { prerequisiteShare: 0.5 } }).search('remind me to call mom', { limit: 2 });
    expect(half[1]!.score).toBeCloseTo(0.5 * half[0]!.score, 10);
    // A query that reaches GetUserToken by itself: its own score stands when higher.
    const both = 'log in with username and password, then add a reminder';
    const score = (hits: { name: string; score: number }[], name: string): number => hits.find((h) => h.name === name)!.score;
    const lifted = createToolIndex(bank).search(both, { limit: 4 });
    const plain = createToolIndex(bank, { tuning: { prerequisiteShare: 0 } }).search(both, { limit: 4 });
    expect(score(plain, 'GetUserToken')).toBeGreaterThan(0.8 * score(plain, 'AddReminder'));
    expect(score(lifted, 'GetUserToken')).toBe(score(plain, 'GetUserToken'));
  });

  it('keeps no link when several siblings would qualify, or the only one takes the value itself', () => {
    const twoProducers = [...bank, tool('bank', 'RefreshUserToken', 'Renew a session.', ['username'])];
    expect(names(createToolIndex(twoProducers), 'remind me to call mom at five')).toEqual(['AddReminder']);
    // RevokeToken requires "token" too: it consumes the value and cannot be where it comes from.
    const consumerOnly = [
      bank[1]!,
      tool('bank', 'RevokeToken', 'Invalidate a session.', ['token']),
      tool('bank', 'QueryStock', 'Latest stock price of a company.', ['symbol']),
    ];
    expect(names(createToolIndex(consumerOnly), 'remind me to call mom at five')).toEqual(['AddReminder']);
  });

  it('links only tools of one server, reads only the top-level required list, and drops the id suffix', () => {
    const split = [bank[1]!, { ...bank[0]!, server: 'auth' }];
    expect(names(createToolIndex(split), 'remind me to call mom')).toEqual(['AddReminder']);
    // "channel_id" names a channel: list_channels produces it.
    const slack = [
      tool('slack', 'post_message', 'Post a message.', ['channel_id', 'text']),
      tool('slack', 'list_channels', 'List every channel of the workspace.', []),
    ];
    expect(names(createToolIndex(slack), 'post a message')).toEqual(['post_message', 'list_channels']);
    // Not required (optional "token"), or a required list that is not an array of strings: no link.
    const optional = [tool('bank', 'AddReminder', 'Add a reminder.', ['token', 'content'], ['content']), bank[0]!];
    expect(names(createToolIndex(optional), 'add a reminder')).toEqual(['AddReminder']);
    const odd = [{ ...bank[1]!, inputSchema: { type: 'object', required: 'token' } }, bank[0]!];
    expect(names(createToolIndex(odd), 'add a reminder')).toEqual(['AddReminder']);
    // A "name" of 10,000 characters is not a parameter name: skipped, not read.
    const long = `token${'_token'.repeat(2_000)}`;
    const huge = [{ ...bank[1]!, inputSchema: { type: 'object', required: [long] } }, bank[0]!];
    expect(names(createToolIndex(huge), 'add a reminder')).toEqual(['AddReminder']);
    const mixed = [{ ...bank[1]!, inputSchema: { type: 'object', required: [7, null, 'token'] } }, bank[0]!];
    expect(names(createToolIndex(mixed), 'add a reminder')).toEqual(['AddReminder', 'GetUserToken']);
  });

  it('follows replaceServer: a producer added or removed by list_changed is linked or dropped', () => {
    const without = createToolIndex([bank[1]!, bank[2]!]);
    expect(names(without, 'remind me to call mom')).toEqual(['AddReminder']);
    const added = without.replaceServer('bank', [bank[0]!, bank[1]!, bank[2]!]);
    expect(names(added, 'remind me to call mom')).toEqual(['AddReminder', 'GetUserToken']);
    expect(names(added.replaceServer('bank', [bank[1]!]), 'remind me to call mom')).toEqual(['AddReminder']);
  });

  it('bounds its work when names and parameters are built to make every lookup scan the server', () => {
    // Two groups of name words; every required parameter mixes them, so no tool qualifies and each
    // lookup would scan half the server. 600 tools × 50 such parameters: far past the budget.
    const group = (g: string): string[] => Array.from({ length: 20 }, (_, i) => `w${g}x${String.fromCharCode(97 + i)}`);
    const [a, b] = [group('a'), group('b')];
    const mixed: string[] = [];
    for (let i = 0; i < 20; i++)
      for (let j = i + 1; j < 20; j++) for (let k = 0; k < 20; k++) mixed.push(`${a[i]}_${a[j]}_${b[k]}`);
    const hostile = Array.from({ length: 600 }, (_, t) => {
      const required = Array.from({ length: 50 }, (_, r) => mixed[(t * 50 + r) % mixed.length] as string);
      return tool('evil', `${(t % 2 ? a : b).join('_')}_${t}`, 'x', required);
    });
    const catalogue = [...bank, ...hostile];
    expect(linksOf(catalogue).exhausted).toBe(true);
    // Links made before the budget ran out stay: the bank's tools come first.
    expect(names(createToolIndex(catalogue), 'remind me to call mom at five', 2)).toEqual(['AddReminder', 'GetUserToken']);
    // A normal catalogue never comes near it.
    expect(linksOf(bank).exhausted).toBe(false);

    // Derived indexes: a hostile server that arrives gets a budget for its own tools, and the links of
    // the servers already there are kept. Derived from a cut-short index, a changed server is resolved
    // with a budget of its own too (resolving everything again would spend it on the hostile server,
    // which comes first in the derived order).
    const arrived = createToolIndex(bank).replaceServer('evil', hostile);
    expect(names(arrived, 'remind me to call mom at five', 2)).toEqual(['AddReminder', 'GetUserToken']);
    const again = createToolIndex(catalogue).replaceServer('bank', [...bank]);
    expect(names(again, 'remind me to call mom at five', 2)).toEqual(['AddReminder', 'GetUserToken']);
  });
});
