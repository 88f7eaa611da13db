import { resolveToolSet } from '@aibuddy/registry';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, connect, fixture } from '../__fixtures__/mcp-helpers.js';
import { createToolSearchConfig } from './tool-search-config.js';
import type { ToolSearchResult } from './tool-search-config.js';

afterEach(closeAll);

describe("tool_search reads the example values of a real stdio MCP server's schemas", () => {
  it('tells twin tools apart by their defaults and examples, and shows the schema unchanged', async () => {
    // 13 tools: the server is deferred (over 10), so its tools are found only through tool_search.
    const m = await connect({ kitchen: fixture('--tools=11', '--examples') });
    expect(m.deferredTools().map((t) => t.name)).toContain('kitchen__recipe_auto_complete');
    const set = await resolveToolSet({ configs: [createToolSearchConfig({ catalog: m })] });
    const definition = set.tools.find((t) => t.definition.name === 'tool_search')!.definition;
    const search = async (query: string) => (await definition.execute({ query } as never, {} as never)) as ToolSearchResult;

    const chicken = await search('auto-complete suggestions for the ingredient chicken');
    expect(chicken.tools[0]?.name).toBe('kitchen__recipe_auto_complete');
    expect((await search('auto-complete the name of a cushion')).tools[0]?.name).toBe('kitchen__shop_auto_complete');
    // The model sees the schema as the server sent it, default included.
    expect(JSON.stringify(chicken.tools[0])).toContain('chicken soup');
  });
});
