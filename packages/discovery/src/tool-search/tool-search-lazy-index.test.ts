import { createOpenAI } from '@ai-sdk/openai';
import { resolveToolSet } from '@aibuddy/registry';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../__fixtures__/mcp-helpers.js';
import type { CatalogTool, DeferredToolCatalog } from '../catalog.js';
import { startEmbeddingsServer } from '../search/__fixtures__/embeddings-server.js';
import { createToolSearchConfig } from './tool-search-config.js';
import type { ToolSearchResult } from './tool-search-config.js';

/** Tools of `server` whose descriptions count how often the index reads them. */
function serverTools(server: string, count: number, reads: { n: number }): CatalogTool[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `${server}__tool_${i}`,
    server,
    get description() {
      reads.n++;
      return `Looks up ${server} record ${i}.`;
    },
    inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
  }));
}

describe('tool_search builds its index once at start, then at the first search after a change', () => {
  it('a step that resolves the tool set again after servers came up does no index work; the next search does', async () => {
    const first = serverTools('alpha', 12, { n: 0 });
    let tools: readonly CatalogTool[] = first;
    const catalog: DeferredToolCatalog = { deferredTools: () => tools };
    const configs = [createToolSearchConfig({ catalog })];
    const set = await resolveToolSet({ configs });

    // Three servers come up one after another; each change resolves the tool set again (as a host's
    // refresh does before a step), and no search runs in between.
    const late = { n: 0 };
    for (const server of ['beta', 'gamma', 'delta']) {
      tools = [...tools, ...serverTools(server, 12, late)];
      await resolveToolSet({ configs });
    }
    expect(late.n).toBe(0);

    const search = set.tools[0]!.definition;
    const result = (await search.execute({ query: 'delta record 3' } as never, {} as never)) as ToolSearchResult;
    expect(late.n).toBeGreaterThan(0);
    expect(result.searched).toBe(48);
    expect(result.tools[0]?.name).toBe('delta__tool_3');
  });

  it('with an embedding model the new tools are embedded as soon as the tool set is resolved, before any search', async () => {
    const server = await startEmbeddingsServer({});
    try {
      let tools: readonly CatalogTool[] = serverTools('alpha', 12, { n: 0 });
      const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'test' }).embedding('text-embedding-3-small');
      const configs = [
        createToolSearchConfig({ catalog: { deferredTools: () => tools }, embeddingModel: model, onWarning: () => {} }),
      ];
      await resolveToolSet({ configs });
      await waitFor(() => server.requests.length > 0, 10_000, 'the first tool vectors');
      tools = [...tools, ...serverTools('beta', 12, { n: 0 })];
      await resolveToolSet({ configs });
      await waitFor(
        () => server.requests.some((r) => r.input.some((t) => t.includes('beta__tool_3'))),
        10_000,
        'the new tools embedded without a search',
      );
    } finally {
      await server.close();
    }
  });
});
