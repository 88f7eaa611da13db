import { createOpenAI } from '@ai-sdk/openai';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddingsServer, type EmbeddingsServer } from './__fixtures__/embeddings-server.js';
import { createToolIndex, type ToolIndexEntry, type ToolSearchWarning } from './index.js';

// The "model" knows that a car is an automobile and a picture is an image; the catalogue never says
// "car" or "picture", so only the semantic side can connect them.
const CONCEPTS = { car: 'automobile', picture: 'image', photo: 'image' };

const catalog: ToolIndexEntry[] = [
  { server: 'garage', name: 'vehicle_lookup', description: 'Find automobile details by registration number.' },
  { server: 'media', name: 'image_resize', description: 'Resize an image to the given width and height.' },
  { server: 'weather', name: 'get_forecast', description: 'Weather forecast for a city.' },
  { server: 'github', name: 'create_issue', description: 'Create an issue in a repository.' },
  { server: 'github', name: 'list_issues', description: 'List issues in a repository.' },
];

let server: EmbeddingsServer;
const dirs: string[] = [];

beforeAll(async () => {
  server = await startEmbeddingsServer(CONCEPTS);
});
afterAll(async () => {
  await server.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});
afterEach(() => {
  server.requests.length = 0;
  server.behaviour = () => 'ok';
});

const model = () => createOpenAI({ baseURL: server.baseURL, apiKey: 'test' }).embedding('text-embedding-3-small');
const tempDir = async () => {
  const d = await mkdtemp(join(tmpdir(), 'aibuddy-embeddings-'));
  dirs.push(d);
  return d;
};
const collect = () => {
  const warnings: ToolSearchWarning[] = [];
  return { warnings, onWarning: (w: ToolSearchWarning) => warnings.push(w) };
};
const names = (hits: { name: string }[]) => hits.map((h) => h.name);

describe('createToolIndex with an embedding model (real @ai-sdk/openai against a loopback /v1/embeddings)', () => {
  it('embeds every tool once, then fuses semantic and lexical rankings', async () => {
    const { warnings, onWarning } = collect();
    const index = createToolIndex(catalog, { embeddingModel: model(), onWarning });
    expect(await index.ready()).toBe(true);
    const toolRequests = server.requests.filter((r) => r.input.length === catalog.length);
    expect(toolRequests).toHaveLength(1);
    expect(toolRequests[0]!.model).toBe('text-embedding-3-small');
    expect(toolRequests[0]!.input[0]).toContain('vehicle_lookup');

    // Lexically "car" matches nothing; semantically it is the automobile tool.
    expect(index.search('my car')).toEqual([]);
    expect(names(await index.searchAsync('my car', { limit: 2 }))[0]).toBe('vehicle_lookup');
    expect(names(await index.searchAsync('shrink this picture', { limit: 1 }))).toEqual(['image_resize']);
    // Where both agree, the fused result keeps the lexical winner on top, best first with positive scores.
    const fused = await index.searchAsync('create an issue in my repository', { limit: 3 });
    expect(fused[0]?.name).toBe('create_issue');
    for (let i = 1; i < fused.length; i++) expect(fused[i - 1]!.score).toBeGreaterThanOrEqual(fused[i]!.score);
    expect(warnings).toEqual([]);
  });

  it('caches tool vectors by description hash in cacheDir and re-embeds only changed tools', async () => {
    const cacheDir = await tempDir();
    const first = createToolIndex(catalog, { embeddingModel: model(), cacheDir });
    expect(await first.ready()).toBe(true);
    expect(server.requests).toHaveLength(1);
    const files = await readdir(join(cacheDir, 'tool-embeddings'));
    expect(files).toEqual(['openai.embedding--text-embedding-3-small.json']);

    server.requests.length = 0;
    const again = createToolIndex(catalog, { embeddingModel: model(), cacheDir });
    expect(await again.ready()).toBe(true);
    expect(server.requests).toHaveLength(0); // every vector came from the cache

    const changed = catalog.map((t) => (t.name === 'get_forecast' ? { ...t, description: 'Seven-day weather forecast.' } : t));
    const third = createToolIndex(changed, { embeddingModel: model(), cacheDir });
    expect(await third.ready()).toBe(true);
    expect(server.requests.map((r) => r.input.length)).toEqual([1]);
    expect(server.requests[0]!.input[0]).toContain('Seven-day');
    expect(names(await third.searchAsync('my car', { limit: 1 }))).toEqual(['vehicle_lookup']);
  });

  it('falls back to the lexical ranking, with a warning, when the query cannot be embedded', async () => {
    const { warnings, onWarning } = collect();
    const index = createToolIndex(catalog, { embeddingModel: model(), onWarning });
    expect(await index.ready()).toBe(true);
    server.behaviour = () => 'fail';
    const hits = await index.searchAsync('list issues', { limit: 3 });
    expect(hits).toEqual(index.search('list issues', { limit: 3 }));
    expect(warnings.map((w) => w.kind)).toEqual(['query-embedding']);
    expect(warnings[0]!.message).toMatch(/lexical/);
  });

  it('does not hang on a stalled endpoint: the query times out and the search is lexical', async () => {
    const { warnings, onWarning } = collect();
    const index = createToolIndex(catalog, { embeddingModel: model(), onWarning, queryTimeoutMs: 300 });
    expect(await index.ready()).toBe(true);
    server.behaviour = () => 'hang';
    const started = Date.now();
    const hits = await index.searchAsync('weather forecast', { limit: 1 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(names(hits)).toEqual(['get_forecast']);
    expect(warnings.map((w) => w.kind)).toEqual(['query-embedding']);
  });

  it('stays lexical, with one warning, when the tool vectors cannot be computed', async () => {
    server.behaviour = () => 'fail';
    const { warnings, onWarning } = collect();
    const index = createToolIndex(catalog, { embeddingModel: model(), onWarning });
    expect(await index.ready()).toBe(false);
    expect(warnings.map((w) => w.kind)).toEqual(['tool-embeddings']);
    expect(await index.searchAsync('weather forecast', { limit: 2 })).toEqual(index.search('weather forecast', { limit: 2 }));
  }, 20_000);

  it('ignores and rewrites a corrupt cache file, with a warning', async () => {
    const cacheDir = await tempDir();
    await createToolIndex(catalog, { embeddingModel: model(), cacheDir }).ready();
    const file = join(cacheDir, 'tool-embeddings', 'openai.embedding--text-embedding-3-small.json');
    await writeFile(file, '{"version":1,"vectors":');
    server.requests.length = 0;
    const { warnings, onWarning } = collect();
    const index = createToolIndex(catalog, { embeddingModel: model(), cacheDir, onWarning });
    expect(await index.ready()).toBe(true);
    expect(warnings.map((w) => w.kind)).toEqual(['embedding-cache']);
    expect(server.requests.map((r) => r.input.length)).toEqual([catalog.length]);
    expect(JSON.parse(await readFile(file, 'utf8')).version).toBe(1);
  });

  it('never embeds regex or empty queries; without a model searchAsync equals search', async () => {
    const index = createToolIndex(catalog, { embeddingModel: model() });
    await index.ready();
    server.requests.length = 0;
    expect(names(await index.searchAsync('^list_', { regex: true }))).toEqual(['list_issues']);
    expect(await index.searchAsync('   ')).toEqual([]);
    expect(server.requests).toHaveLength(0);

    const lexical = createToolIndex(catalog);
    expect(await lexical.ready()).toBe(false);
    expect(await lexical.searchAsync('list issues')).toEqual(lexical.search('list issues'));
  });

  it('replaceServer embeds only the new tools, even without a cache folder', async () => {
    const index = createToolIndex(catalog, { embeddingModel: model() });
    expect(await index.ready()).toBe(true);
    server.requests.length = 0;
    const next = index.replaceServer('garage', [{ server: 'garage', name: 'car_wash', description: 'Book an automobile wash.' }]);
    expect(await next.ready()).toBe(true);
    expect(server.requests.map((r) => r.input)).toEqual([[expect.stringContaining('car_wash')]]);
    expect(names(await next.searchAsync('clean my car', { limit: 1 }))).toEqual(['car_wash']);
    expect(names(await next.searchAsync('resize a picture', { limit: 1 }))).toEqual(['image_resize']);
  });

  it('rejects something that is not an embedding model', () => {
    expect(() => createToolIndex(catalog, { embeddingModel: 'text-embedding-3-small' as never })).toThrow(
      /embedding model object/,
    );
  });
});
