import { describe, expect, it } from 'vitest';
import { createToolIndex } from './tool-index.js';
import type { ToolIndexEntry } from './types.js';

// A property written "city=Lisbon" has that default (the index reads it as an example value).
const tool = (server: string, name: string, description: string, props: string[] = []): ToolIndexEntry => ({
  name: `${server}__${name}`,
  server,
  description,
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(
      props.map((p) => {
        const [key, value] = p.split('=');
        return [key as string, value === undefined ? { type: 'string' } : { type: 'string', default: value }];
      }),
    ),
  },
});

const github = [
  tool('github', 'create_issue', 'Create a new issue in a repository.', ['repo', 'title']),
  tool('github', 'list_pulls', 'List the pull requests of a repository.', ['repo']),
];
const slack = [
  tool('slack', 'post_message', 'Post a message to a channel.', ['channel', 'text']),
  tool('slack', 'list_channels', 'List the channels of the workspace.'),
];
const weather = [tool('weather', 'get_forecast', 'Five-day weather forecast for a city.', ['city=Lisbon'])];

describe('ToolIndex.replaceServer', () => {
  it('ranks exactly like a full build of the same catalogue', () => {
    const slackNext = [
      slack[0]!,
      tool('slack', 'archive_channel', 'Archive a channel nobody uses any more.', ['channel=announcements']),
    ];
    const derived = createToolIndex([...github, ...slack, ...weather]).replaceServer('slack', slackNext);
    const full = createToolIndex([...github, ...weather, ...slackNext]);
    for (const q of [
      'archive the old channel',
      'post a message',
      'weather in Lisbon',
      'repository issue',
      'list channels',
      'announcements',
    ]) {
      expect(derived.search(q, { limit: 5 })).toEqual(full.search(q, { limit: 5 }));
    }
    expect(derived.size).toBe(5);
    // The derived index reads the new tools' example values too.
    expect(derived.search('announcements')[0]?.name).toBe('slack__archive_channel');
  });

  it('finds the new tool, not the removed one, and leaves the original index as it was', () => {
    const before = createToolIndex([...github, ...slack, ...weather]);
    const after = before.replaceServer('slack', [tool('slack', 'archive_channel', 'Archive a channel.', ['channel'])]);
    expect(after.search('archive channel')[0]?.name).toBe('slack__archive_channel');
    expect(after.search('list channels').map((h) => h.name)).not.toContain('slack__list_channels');
    expect(before.search('list channels')[0]?.name).toBe('slack__list_channels');
    expect(before.search('archive').map((h) => h.name)).not.toContain('slack__archive_channel');
    expect(after.search('^slack__', { regex: true }).map((h) => h.name)).toEqual(['slack__archive_channel']);
  });

  it('adds a new server and removes a server given no tools', () => {
    const index = createToolIndex([...github, ...slack]);
    const withWeather = index.replaceServer('weather', weather);
    expect(withWeather.search('forecast')[0]?.name).toBe('weather__get_forecast');
    const without = withWeather.replaceServer('github', []);
    expect(without.size).toBe(3);
    expect(without.search('pull requests repository')).toEqual([]);
  });

  it('refuses tools of another server and names already taken, naming the server', () => {
    const index = createToolIndex([...github, ...slack]);
    expect(() => index.replaceServer('slack', [github[0]!])).toThrow(/replaceServer\("slack"\).*belongs to server "github"/);
    expect(() => index.replaceServer('slack', [{ name: 'github__create_issue', description: 'x' }])).toThrow(
      /duplicate tool name "github__create_issue"/,
    );
    expect(() => index.replaceServer('', [])).toThrow(TypeError);
    expect(index.size).toBe(4);
  });

  it('after many derivations still ranks like a full build (rebuilt once half the tools were replaced)', () => {
    let index = createToolIndex([...github, ...slack, ...weather]);
    let current = [...github, ...slack, ...weather];
    for (let round = 0; round < 6; round++) {
      const next = [tool('weather', 'get_forecast', `Weather forecast, revision ${round}.`, ['city'])];
      index = index.replaceServer('weather', next);
      current = [...current.filter((t) => t.server !== 'weather'), ...next];
      expect(index.search('weather forecast revision')).toEqual(createToolIndex(current).search('weather forecast revision'));
    }
  });

  it('replaceServers: several servers in one call rank like a full build and like one-by-one replacement', () => {
    const before = createToolIndex([...github, ...slack]);
    const slackNext = [tool('slack', 'archive_channel', 'Archive a channel nobody uses any more.', ['channel'])];
    const batch = before.replaceServers(
      new Map([
        ['weather', weather],
        ['slack', slackNext],
      ]),
    );
    const oneByOne = before.replaceServer('weather', weather).replaceServer('slack', slackNext);
    const full = createToolIndex([...github, ...weather, ...slackNext]);
    for (const q of ['archive the old channel', 'post a message', 'weather in Paris', 'repository issue', 'forecast']) {
      expect(batch.search(q, { limit: 5 })).toEqual(full.search(q, { limit: 5 }));
      expect(batch.search(q, { limit: 5 })).toEqual(oneByOne.search(q, { limit: 5 }));
    }
    expect(batch.size).toBe(4);
    expect(before.size).toBe(4);
  });

  it('replaceServers: a name may move from one changed server to another in the same call', () => {
    const index = createToolIndex([...github, ...slack]);
    const moved = { ...slack[0]!, server: 'chat' };
    const next = index.replaceServers(
      new Map([
        ['slack', [slack[1]!]],
        ['chat', [moved]],
      ]),
    );
    expect(next.search('post a message')[0]?.name).toBe('slack__post_message');
    expect(() => index.replaceServers([['x', []]] as never)).toThrow(/Map/);
  });
});
