import { createOpenAI } from '@ai-sdk/openai';
import { resolveToolSet } from '@aibuddy/registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CatalogTool, DeferredToolCatalog } from '../catalog.js';
import { startEmbeddingsServer, type EmbeddingsServer } from '../search/__fixtures__/embeddings-server.js';
import type { ToolSearchWarning } from '../search/index.js';
import { createToolSearchConfig } from './tool-search-config.js';
import type { ToolSearchResult } from './tool-search-config.js';

// The loopback "model" knows a car is an automobile; the catalogue never says "car".
const CONCEPTS = { car: 'automobile' };
const tool = (server: string, name: string, description: string): CatalogTool => ({
  name: `${server}__${name}`,
  server,
  description,
  inputSchema: { type: 'object', properties: {} },
});
const first = [
  tool('garage', 'vehicle_lookup', 'Find automobile details by registration number.'),
  tool('weather', 'get_forecast', 'Weather forecast for a city.'),
  tool('github', 'create_issue', 'Create an issue in a repository.'),
];

let server: EmbeddingsServer;
let cacheDir: string;
beforeAll(async () => {
  server = await startEmbeddingsServer(CONCEPTS);
  cacheDir = await mkdtemp(join(tmpdir(), 'aibuddy-tool-search-embeddings-'));
});
afterAll(async () => {
  await server.close();
  await rm(cacheDir, { recursive: true, force: true });
});

async function toolSearch(catalog: DeferredToolCatalog, warnings: ToolSearchWarning[]) {
  const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'test' }).embedding('text-embedding-3-small');
  const config = createToolSearchConfig({ catalog, embeddingModel: model, cacheDir, onWarning: (w) => warnings.push(w) });
  const set = await resolveToolSet({ configs: [config] });
  const definition = set.tools[0]!.definition;
  return async (query: string) => ((await definition.execute({ query } as never, {} as never)) as ToolSearchResult).tools;
}

describe('tool_search with an embedding model (real @ai-sdk/openai against a loopback /v1/embeddings)', () => {
  it('uses the fused ranking, caches tool vectors in cacheDir, and embeds only new tools after a change', async () => {
    let tools: readonly CatalogTool[] = first;
    const warnings: ToolSearchWarning[] = [];
    const search = await toolSearch({ deferredTools: () => tools }, warnings);
    // "car" is in no tool's text: only the semantic side finds the automobile tool.
    expect((await search('my car'))[0]?.name).toBe('garage__vehicle_lookup');
    expect(await readdir(join(cacheDir, 'tool-embeddings'))).toHaveLength(1);

    server.requests.length = 0;
    tools = [...first, tool('parking', 'find_spot', 'Find a free parking spot near an address.')];
    expect((await search('free parking spot'))[0]?.name).toBe('parking__find_spot');
    const embeddedTexts = server.requests.flatMap((r) => r.input);
    // The new tool and the two queries, never the unchanged tools again.
    expect(embeddedTexts.filter((t) => t.includes('find_spot'))).toHaveLength(1);
    expect(embeddedTexts.some((t) => t.includes('vehicle_lookup'))).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('falls back to the lexical ranking with a warning when the endpoint fails', async () => {
    const warnings: ToolSearchWarning[] = [];
    const search = await toolSearch({ deferredTools: () => first }, warnings);
    // Tool vectors are loaded from the cache; the query embedding fails.
    server.behaviour = (r) => (r.input.length === 1 ? 'fail' : 'ok');
    try {
      const hits = await search('weather forecast for Paris');
      expect(hits[0]?.name).toBe('weather__get_forecast');
      expect(await search('my car')).toEqual([]);
    } finally {
      server.behaviour = () => 'ok';
    }
    expect(warnings.map((w) => w.kind)).toContain('query-embedding');
  });
});
