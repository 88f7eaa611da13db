import { resolveToolSet } from '@aibuddy/registry';
import { describe, expect, it, vi } from 'vitest';
import type { CatalogTool } from '../catalog.js';
import { createToolIndex, WARM_UP_SEARCHES } from '../search/index.js';
import { createToolSearchConfig } from './tool-search-config.js';
import type { ToolSearchResult } from './tool-search-config.js';

// Every query the lexical ranker is asked, whichever index asks it: the warm-up is only visible
// there (its results are discarded on purpose).
const asked = vi.hoisted(() => [] as string[]);
vi.mock('../search/lexical-ranker.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../search/lexical-ranker.js')>();
  return {
    ...original,
    createLexicalRanker: (...args: Parameters<typeof original.createLexicalRanker>) => {
      const ranker = original.createLexicalRanker(...args);
      return {
        ...ranker,
        rank: (query: string, limit: number) => {
          asked.push(query);
          return ranker.rank(query, limit);
        },
      };
    },
  };
});

const tools = (server: string, count: number): CatalogTool[] =>
  Array.from({ length: count }, (_, i) => ({
    name: `${server}__tool_${i}`,
    server,
    description: `Looks up ${server} record number ${i} and returns its fields.`,
    inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
  }));

describe('ToolIndex.warmUp', () => {
  it('searches the start of tools spread over the catalogue, and changes no later result', () => {
    const entries = [...tools('alpha', 20), ...tools('beta', 20)];
    const warm = createToolIndex(entries);
    const cold = createToolIndex(entries);
    asked.length = 0;
    expect(warm.warmUp()).toBe(WARM_UP_SEARCHES);
    expect(asked).toEqual([5, 15, 25, 35].map((i) => entries[i]!.description));
    for (const q of ['beta record 7', 'looks up alpha', 'fields 33']) expect(warm.search(q)).toEqual(cold.search(q));
  });

  it('runs as many searches as there are tools when there are fewer, and none on an empty index', () => {
    asked.length = 0;
    expect(createToolIndex([]).warmUp()).toBe(0);
    expect(createToolIndex([{ name: 'only_tool' }]).warmUp()).toBe(1);
    // No description: the name is the query.
    expect(asked).toEqual(['only_tool']);
  });
});

describe('tool_search warms its first index at start-up, not in a step', () => {
  it('the first tool set warms the index once; a change and the next resolve do not, a search asks once', async () => {
    let catalogue: readonly CatalogTool[] = tools('alpha', 30);
    const configs = [createToolSearchConfig({ catalog: { deferredTools: () => catalogue } })];
    asked.length = 0;
    const set = await resolveToolSet({ configs });
    expect(asked).toHaveLength(WARM_UP_SEARCHES);

    catalogue = [...catalogue, ...tools('beta', 30)];
    await resolveToolSet({ configs });
    expect(asked).toHaveLength(WARM_UP_SEARCHES);

    const search = set.tools[0]!.definition;
    const result = (await search.execute({ query: 'beta record 3' } as never, {} as never)) as ToolSearchResult;
    expect(result.tools[0]?.name).toBe('beta__tool_3');
    expect(asked.slice(WARM_UP_SEARCHES)).toEqual(['beta record 3']);
  });
});
