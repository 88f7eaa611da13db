import { describe, expect, it, vi } from 'vitest';
import { createToolIndex, ToolSearchQueryError, type ToolIndexEntry } from './index.js';

const obj = (properties: Record<string, { type: string; description?: string }>) => ({ type: 'object', properties });

// A small catalog shaped like namespaced MCP tools from a few servers.
const catalog: ToolIndexEntry[] = [
  {
    server: 'github',
    name: 'github__create_issue',
    description: 'Create a new issue in a GitHub repository.',
    inputSchema: obj({
      owner: { type: 'string' },
      repo: { type: 'string' },
      title: { type: 'string' },
      body: { type: 'string' },
    }),
  },
  {
    server: 'github',
    name: 'github__list_issues',
    description: 'List issues in a GitHub repository, optionally filtered by state.',
    inputSchema: obj({ owner: { type: 'string' }, repo: { type: 'string' }, state: { type: 'string' } }),
  },
  {
    server: 'github',
    name: 'github__createPullRequest',
    description: 'Open a pull request from a branch.',
    inputSchema: obj({ head: { type: 'string' }, base: { type: 'string' } }),
  },
  {
    server: 'github',
    name: 'github__search_code',
    description: 'Search code across repositories.',
    inputSchema: obj({ q: { type: 'string', description: 'Search query' } }),
  },
  {
    server: 'slack',
    name: 'slack__send_message',
    description: 'Post a message to a Slack channel.',
    inputSchema: obj({ channel_id: { type: 'string' }, text: { type: 'string' } }),
  },
  {
    server: 'slack',
    name: 'slack__list_channels',
    description: 'List public channels in the workspace.',
    inputSchema: obj({ limit: { type: 'number' } }),
  },
  {
    server: 'weather',
    name: 'weather__get_current_weather',
    description: 'Current weather conditions for a city.',
    inputSchema: obj({ city: { type: 'string' } }),
  },
  {
    server: 'weather',
    name: 'weather__get_forecast',
    description: 'Seven-day weather forecast for a location.',
    inputSchema: obj({ latitude: { type: 'number' }, longitude: { type: 'number' } }),
  },
  {
    server: 'filesystem',
    name: 'filesystem__read_file',
    description: 'Read the complete contents of a file from disk.',
    inputSchema: obj({ path: { type: 'string' } }),
  },
  {
    server: 'filesystem',
    name: 'filesystem__write_file',
    description: 'Create or overwrite a file with new content.',
    inputSchema: obj({ path: { type: 'string' }, content: { type: 'string' } }),
  },
  {
    server: 'filesystem',
    name: 'filesystem__search_files',
    description: 'Recursively search for files matching a pattern.',
    inputSchema: obj({ path: { type: 'string' }, pattern: { type: 'string' } }),
  },
  {
    server: 'postgres',
    name: 'postgres__query',
    description: 'Run a read-only query.',
    inputSchema: obj({ sql: { type: 'string', description: 'The SQL statement to execute' } }),
  },
  { server: 'users', name: 'users__getUserProfile', description: 'Profile details of one account.' },
  { server: 'games', name: 'games__pokedex_entry', description: 'Look up a Pokémon by name.' },
  { name: 'calculator', description: 'Evaluate an arithmetic expression.' },
];

const names = (hits: { name: string }[]) => hits.map((h) => h.name);

describe('createToolIndex: ranking', () => {
  const index = createToolIndex(catalog);

  it('ranks the tool that does what the query asks first', () => {
    expect(index.search('open a new issue in my repository')[0]?.name).toBe('github__create_issue');
    expect(index.search('what is the weather forecast for next week')[0]?.name).toBe('weather__get_forecast');
    expect(index.search('read a file from disk')[0]?.name).toBe('filesystem__read_file');
  });

  it('returns hits best first with positive scores, deterministically', () => {
    const hits = index.search('list issues and channels', { limit: 10 });
    expect(hits.length).toBeGreaterThan(1);
    for (const h of hits) expect(h.score).toBeGreaterThan(0);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    expect(index.search('list issues and channels', { limit: 10 })).toEqual(hits);
  });

  it('carries nothing from one query to the next (each answer is that of a fresh index)', () => {
    // Many servers and tools, so that queries take the sparse and the dense path, touch more or fewer
    // tools than there are servers, and name the same tools' name terms one after another.
    const verbs = ['create', 'list', 'delete', 'update', 'search', 'export'];
    const things = ['issue', 'invoice', 'contact', 'ticket', 'file', 'order', 'report'];
    const big: ToolIndexEntry[] = [];
    for (let s = 0; s < 40; s++)
      for (let k = 0; k < 25; k++) {
        const verb = verbs[(s + k) % verbs.length]!;
        const thing = things[(s * 3 + k) % things.length]!;
        big.push({
          server: `svc${s}`,
          name: `svc${s}__${verb}_${thing}_${k}`,
          description: `${verb} a ${thing} in service ${s}.${k % 4 === 0 ? ' Also exports a report.' : ''}`,
        });
      }
    const queries = [
      'create an invoice',
      'list tickets and delete the old contact',
      'svc7 export report',
      'search files. Then update the order in service 12',
      'create issue',
      'create issue',
      'report',
      'delete_contact_3',
    ];
    const shared = createToolIndex(big);
    const sequential = queries.map((q) => shared.search(q, { limit: 10 }));
    const fresh = queries.map((q) => createToolIndex(big).search(q, { limit: 10 }));
    expect(sequential).toEqual(fresh);
    expect(sequential.every((hits) => hits.length === 10)).toBe(true);
  });

  it('finds the tool for each part of a multi-part request', () => {
    const top = names(index.search('Read the config file from disk. Also post a message to the team channel.', { limit: 3 }));
    expect(top).toContain('filesystem__read_file');
    expect(top).toContain('slack__send_message');
  });

  it('counts numbers in the request as values: "(1, 2, 3)" does not pull in a "v2" tool', () => {
    const tools = [
      { name: 'calculate_distance', description: 'Euclidean distance between two points.' },
      { name: 'matches_v2_list', description: 'List the matches of a league.' },
      { name: 'point_of_interest', description: 'Find points of interest near a place.' },
    ];
    const query = 'What is the distance between the points (1, 2, 3) and (4, 5, 6)?';
    const ranked = (numberWeight?: number): string[] =>
      createToolIndex(tools, numberWeight === undefined ? {} : { tuning: { numberWeight } })
        .search(query, { limit: 3 })
        .map((h) => h.name);
    expect(ranked()).toEqual(['calculate_distance', 'point_of_interest', 'matches_v2_list']);
    expect(ranked(1)).toEqual(['calculate_distance', 'matches_v2_list', 'point_of_interest']);
  });

  it('matches schema property names and descriptions', () => {
    expect(index.search('execute this SQL statement')[0]?.name).toBe('postgres__query');
  });

  it("reads a schema's example values (string defaults, examples) as a field of their own, weighted below the description", () => {
    // Twins but for the domain their schemas' example values name: "chicken soup" tells the recipe
    // service's auto-complete from the furniture shop's.
    const complete = (name: string, query: Record<string, unknown>) => ({
      name,
      description: 'Auto-complete suggestions for a partial query.',
      inputSchema: { type: 'object', properties: { q: { type: 'string', description: 'Text to complete.', ...query } } },
    });
    const tools = [
      complete('furniture_auto_complete', { default: 'red pillow' }),
      complete('recipes_auto_complete', { default: 'chicken soup' }),
      complete('pets_auto_complete', { examples: ['siamese cat', 42] }),
      // Named in a description, a word counts for more than as an example value.
      { name: 'soup_recipes', description: 'Chicken recipes and soups of the day.' },
    ];
    const index = createToolIndex(tools);
    const top = (query: string): string | undefined => index.search(query)[0]?.name;
    expect(top('auto-complete suggestions for the ingredient chicken')).toBe('recipes_auto_complete');
    expect(top('auto-complete the name of a cat breed: siamese')).toBe('pets_auto_complete');
    expect(top('chicken soup')).toBe('soup_recipes');
    // The values decide: swapped, the other twin comes first.
    const swapped = createToolIndex([
      complete('furniture_auto_complete', { default: 'chicken soup' }),
      complete('recipes_auto_complete', { default: 'red pillow' }),
    ]);
    expect(swapped.search('auto-complete suggestions for the ingredient chicken')[0]?.name).toBe('furniture_auto_complete');
    // A field of weight 0 is off: its words make no posting (BM25+ would still give each δ × idf).
    const off = createToolIndex(tools, { tuning: { fieldWeights: [2, 1, 1, 0.5, 0] } });
    expect(off.search('siamese')).toEqual([]);
  });

  it('reads neither enum options (nor a default among them) nor non-string or document-length defaults as example values', () => {
    const tools = [
      {
        name: 'sort_orders',
        description: 'List orders.',
        // The default and examples of a parameter with options are among them: a setting too.
        inputSchema: {
          type: 'object',
          properties: {
            order: { type: 'string', enum: ['ascending', 'descending'], default: 'descending', examples: ['ascending'] },
          },
        },
      },
      {
        name: 'page_size',
        description: 'List pages.',
        inputSchema: {
          type: 'object',
          properties: { n: { type: 'integer', default: 31415 }, flag: { type: 'boolean', default: true } },
        },
      },
      {
        name: 'prompt_template',
        description: 'Render a prompt.',
        inputSchema: {
          type: 'object',
          properties: { template: { type: 'string', default: `${'lorem ipsum '.repeat(30)}zanzibar` } },
        },
      },
    ];
    const index = createToolIndex(tools);
    expect(index.search('descending')).toEqual([]);
    expect(index.search('ascending')).toEqual([]);
    expect(index.search('31415 true')).toEqual([]);
    expect(index.search('zanzibar')).toEqual([]);
  });

  it('folds diacritics', () => {
    expect(index.search('pokemon pikachu')[0]?.name).toBe('games__pokedex_entry');
    expect(index.search('Pokémon')[0]?.name).toBe('games__pokedex_entry');
  });

  it('stems plurals and verb forms', () => {
    expect(index.search('forecasts')[0]?.name).toBe('weather__get_forecast');
    expect(index.search('searching repositories code')[0]?.name).toBe('github__search_code');
  });
});

describe('createToolIndex: identifiers', () => {
  const index = createToolIndex(catalog);

  it('splits camelCase names', () => {
    expect(index.search('user profile')[0]?.name).toBe('users__getUserProfile');
    expect(index.search('create a pull request')[0]?.name).toBe('github__createPullRequest');
  });

  it('splits snake_case and camelCase in the query', () => {
    expect(index.search('get_current_weather')[0]?.name).toBe('weather__get_current_weather');
    expect(index.search('sendMessage')[0]?.name).toBe('slack__send_message');
  });

  it('finds a tool named outright, with or without its namespace', () => {
    expect(index.search('use github__list_issues please')[0]?.name).toBe('github__list_issues');
    expect(index.search('call write_file')[0]?.name).toBe('filesystem__write_file');
  });

  it('reads run-together words', () => {
    expect(index.search('getforecast')[0]?.name).toBe('weather__get_forecast');
  });

  it('joins two query words the catalog writes as one', () => {
    const joined = createToolIndex([
      { name: 'lookup_zipcode', description: 'Find the zipcode of an address.' },
      { name: 'code_formatter', description: 'Format source code.' },
      { name: 'search_code', description: 'Search code in a repository.' },
      { name: 'run_code', description: 'Run a code snippet.' },
    ]);
    expect(joined.search('which zip code is this street in')[0]?.name).toBe('lookup_zipcode');
  });
});

describe('createToolIndex: typos', () => {
  const index = createToolIndex(catalog);

  it('corrects one-edit typos of catalog words', () => {
    expect(index.search('wether forcast')[0]?.name).toBe('weather__get_forecast');
    expect(index.search('serach files')[0]?.name).toBe('filesystem__search_files');
    expect(index.search('calculater arithmetic')[0]?.name).toBe('calculator');
  });

  it('does not invent matches for unknown words', () => {
    expect(index.search('zzqx blorptangle')).toEqual([]);
  });
});

describe('createToolIndex: server names', () => {
  const index = createToolIndex(catalog);

  it('prefers tools of a server named in the query', () => {
    const top = names(index.search('list things on slack', { limit: 2 }));
    expect(top[0]).toBe('slack__list_channels');
    expect(index.search('github search')[0]?.name).toBe('github__search_code');
  });

  it('returns a server’s tools for a bare server name', () => {
    const top = names(index.search('filesystem', { limit: 3 }));
    expect(top.sort()).toEqual(['filesystem__read_file', 'filesystem__search_files', 'filesystem__write_file']);
  });
});

describe('createToolIndex: regex queries', () => {
  const index = createToolIndex(catalog);

  it('matches names, name matches first', () => {
    const hits = index.search('^github__.*issue', { regex: true, limit: 10 });
    expect(names(hits).sort()).toEqual(['github__create_issue', 'github__list_issues']);
  });

  it('searches descriptions and parameters too, ranking name matches above them', () => {
    const hits = names(index.search('file', { regex: true, limit: 10 }));
    expect(hits.slice(0, 3).sort()).toEqual(['filesystem__read_file', 'filesystem__search_files', 'filesystem__write_file']);
    expect(names(index.search('channel_id', { regex: true }))).toEqual(['slack__send_message']);
  });

  it('is case-sensitive unless the pattern starts with (?i)', () => {
    expect(index.search('WEATHER', { regex: true })).toEqual([]);
    expect(names(index.search('(?i)WEATHER', { regex: true, limit: 10 })).sort()).toEqual([
      'weather__get_current_weather',
      'weather__get_forecast',
    ]);
  });

  it('throws ToolSearchQueryError (stage parameters) for an invalid or over-long pattern', () => {
    const bad = () => index.search('get_(issue', { regex: true });
    expect(bad).toThrow(ToolSearchQueryError);
    try {
      bad();
    } catch (error) {
      expect(ToolSearchQueryError.isInstance(error)).toBe(true);
      expect((error as ToolSearchQueryError).stage).toBe('parameters');
      expect((error as Error).message).toMatch(/not a valid pattern/);
    }
    expect(() => index.search('a'.repeat(201), { regex: true })).toThrow(/limit is 200/);
    expect(() => index.search('', { regex: true })).toThrow(ToolSearchQueryError);
    expect(names(index.search('(get|list)_.*', { regex: true, limit: 10 }))).toContain('github__list_issues');
    // Backreferences and lookaround need backtracking: refused with the reason.
    expect(() => index.search('(issue)\\1', { regex: true })).toThrow(/backreferences and lookaround/);
    expect(() => index.search('issue(?=s)', { regex: true })).toThrow(/backreferences and lookaround/);
  });

  it("runs the model's pattern in linear time: patterns that backtrack for hours in a JS engine answer at once", () => {
    // Each backtracks exponentially or polynomially in a JS engine when it fails on a run of "a": on a
    // description of 40 it would take hours. The spy checks that no JS RegExp is built from them (the
    // text is short enough that a regression fails here instead of hanging), and the answers show
    // that the patterns were really run.
    const long = createToolIndex([
      ...catalog,
      { name: 'odd__tool', description: `${'a'.repeat(16)} then a bang: aa!`, inputSchema: { type: 'object' }, server: 'odd' },
    ]);
    const evil = ['((\\w+))+!', '(.*a){4}x', 'a.*a.*a.*a.*a.*x', '(a|a)+!', '(?:\\w|\\w\\w)+$'];
    const spy = vi.spyOn(globalThis, 'RegExp');
    let built: string[];
    let hits: string[][];
    try {
      hits = evil.map((q) => names(long.search(q, { regex: true, limit: 3 })));
      built = spy.mock.calls.map(([source]) => String(source));
    } finally {
      spy.mockRestore();
    }
    expect(hits.slice(0, 4)).toEqual([['odd__tool'], [], [], ['odd__tool']]);
    expect(built.filter((source) => evil.includes(source))).toEqual([]);
  });
});

describe('createToolIndex: bad and edge input', () => {
  const index = createToolIndex(catalog);

  it('returns [] for empty, blank, stop-word-only and garbage queries without throwing', () => {
    for (const q of ['', '   ', '!!! ??? ...', 'the and of to', '\u0000\u0001', '🙂🙂', '(((', '.*']) {
      expect(index.search(q)).toEqual([]);
    }
    expect(index.search(undefined as unknown as string)).toEqual([]);
    expect(index.search(42 as unknown as string)).toEqual([]);
  });

  it('copes with a very long query', () => {
    const long = `${'lorem ipsum dolor '.repeat(2000)} weather forecast`;
    expect(() => index.search(long)).not.toThrow();
  });

  it('handles limits: default 5, floors fractions, 0 or negative gives none, capped at the catalog size', () => {
    const q = 'file issue weather channel message';
    expect(index.search(q).length).toBe(5);
    expect(index.search(q, { limit: 1 }).length).toBe(1);
    expect(index.search(q, { limit: 2.9 }).length).toBe(2);
    expect(index.search(q, { limit: 0 })).toEqual([]);
    expect(index.search(q, { limit: -3 })).toEqual([]);
    expect(index.search(q, { limit: Number.NaN }).length).toBe(5);
    expect(index.search('file', { limit: 1000 }).length).toBeLessThanOrEqual(catalog.length);
    expect(index.search('^', { regex: true, limit: 1000 }).length).toBe(catalog.length);
    expect(index.search('file', { limit: 1 })[0]).toEqual(index.search('file', { limit: 10 })[0]);
  });

  it('indexes an empty catalog', () => {
    const empty = createToolIndex([]);
    expect(empty.size).toBe(0);
    expect(empty.search('anything')).toEqual([]);
    expect(empty.search('.*', { regex: true })).toEqual([]);
  });

  it('rejects entries without a name and duplicate names', () => {
    expect(() => createToolIndex([{ name: '' }])).toThrow(TypeError);
    expect(() => createToolIndex([{ name: 'a' }, { name: 'a' }])).toThrow(/duplicate tool name "a"/);
    expect(() => createToolIndex([{ description: 'x' } as unknown as ToolIndexEntry])).toThrow(/entry 0 has no name/);
  });

  it('tolerates missing descriptions, odd schemas and servers', () => {
    const index2 = createToolIndex([
      { name: 'alpha_tool' },
      { name: 'beta_tool', description: 'beta things', inputSchema: 'not a schema' },
      {
        name: 'gamma_tool',
        inputSchema: {
          type: 'object',
          properties: { nested: { type: 'object', properties: { deep_field: { type: 'string' } } } },
        },
      },
    ]);
    expect(index2.size).toBe(3);
    expect(index2.search('alpha')[0]?.name).toBe('alpha_tool');
    expect(index2.search('deep field')[0]?.name).toBe('gamma_tool');
  });
});
