import { resolveToolSet } from '@aibuddy/registry';
import { describe, expect, it } from 'vitest';
import { combineCatalogs, staticCatalog } from '../catalog.js';
import type { CatalogTool, DeferredToolCatalog } from '../catalog.js';
import { createToolSearchConfig } from './tool-search-config.js';
import type { ToolSearchResult } from './tool-search-config.js';

const tool = (name: string, description: string, server: string): CatalogTool => ({
  name,
  description,
  server,
  inputSchema: { type: 'object', properties: {} },
});

/** A catalogue whose deferred tools and starting servers the test sets. */
function changingCatalog() {
  const state = { tools: [] as CatalogTool[], starting: [] as string[] };
  const catalog: DeferredToolCatalog = { deferredTools: () => state.tools, starting: () => state.starting };
  return { state, catalog };
}

async function searchOnce(catalog: DeferredToolCatalog, query: string) {
  const set = await resolveToolSet({ configs: [createToolSearchConfig({ catalog })] });
  const definition = set.tools.find((t) => t.definition.name === 'tool_search')?.definition;
  if (!definition) return { set };
  const result = (await definition.execute({ query }, {} as never)) as ToolSearchResult;
  return { set, result };
}

// Servers that are still starting when a run begins (connectMcpServers' waitForServersMs): the model
// must learn that their tools are coming, not conclude that they do not exist.
describe('tool_search while MCP servers are still starting', () => {
  it('is offered while servers start even with no deferred tool yet, and its note names them', async () => {
    const { state, catalog } = changingCatalog();
    state.starting = ['jira', 'github'];
    const { set, result } = await searchOnce(catalog, 'create an issue');
    expect(set.tools.map((t) => t.definition.name)).toEqual(['tool_search']);
    expect(set.instructions.map((i) => i.text).join('\n')).toMatch(/still starting.*jira, github/);
    expect(result?.tools).toEqual([]);
    expect(result?.starting).toEqual(['jira', 'github']);
    expect(result?.note).toMatch(/still starting: jira, github.*search again/i);
  });

  it('says nothing about starting servers once every server is up', async () => {
    const { state, catalog } = changingCatalog();
    state.tools = [tool('git__create_issue', 'Open an issue in a repository.', 'git')];
    const { set, result } = await searchOnce(catalog, 'create an issue');
    expect(set.instructions.map((i) => i.text).join('\n')).not.toMatch(/starting/);
    expect(result?.tools.map((t) => t.name)).toEqual(['git__create_issue']);
    expect(result?.starting).toBeUndefined();
    expect(result?.note).not.toMatch(/starting/);
  });

  it('names at most 10 starting servers, then how many more', async () => {
    const { state, catalog } = changingCatalog();
    state.starting = Array.from({ length: 25 }, (_, i) => `s${i}`);
    const { result } = await searchOnce(catalog, 'anything');
    expect(result?.starting).toHaveLength(25);
    expect(result?.note).toMatch(/s0, s1, .*s9 and 15 more/);
    expect(result?.note).not.toMatch(/s10/);
  });

  it('is left out with no deferred tool and no starting server (the reason is reported)', async () => {
    const { set } = await searchOnce(changingCatalog().catalog, 'x');
    expect(set.tools).toEqual([]);
    expect(JSON.stringify(set.excluded)).toMatch(/no deferred tools/);
  });

  it('combineCatalogs reports the starting servers of every part, once each', () => {
    const a: DeferredToolCatalog = { deferredTools: () => [], starting: () => ['x', 'y'] };
    const b: DeferredToolCatalog = { deferredTools: () => [], starting: () => ['y', 'z'] };
    expect(combineCatalogs(a, staticCatalog([]), b).starting?.()).toEqual(['x', 'y', 'z']);
  });
});
