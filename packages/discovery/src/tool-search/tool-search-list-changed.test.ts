import { resolveToolSet } from '@aibuddy/registry';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, connect, fixture, waitFor } from '../__fixtures__/mcp-helpers.js';
import { createToolSearchConfig } from './tool-search-config.js';
import type { ToolSearchResult } from './tool-search-config.js';

afterEach(closeAll);

describe('tool_search follows tools/list_changed of a real stdio MCP server', () => {
  it('finds the tool the server added and not the one it removed; other servers stay searchable', async () => {
    const m = await connect({ big: fixture('--tools=11', '--special'), other: fixture('--tools=40') });
    const set = await resolveToolSet({ configs: [createToolSearchConfig({ catalog: m })] });
    const definition = set.tools[0]!.definition;
    const search = async (input: Record<string, unknown>): Promise<string[]> => {
      const result = (await definition.execute(input as never, {} as never)) as ToolSearchResult;
      return result.tools.map((t) => t.name);
    };
    expect((await search({ query: 'weather for a city' }))[0]).toMatch(/__get_weather$/);
    expect(await search({ query: '/^big__get_weather$/' })).toEqual(['big__get_weather']);

    await m.callTool('big__add_tool', {
      name: 'archive_mailbox',
      remove: 'get_weather',
      description: 'Archive an old mailbox to cold storage.',
    });
    await waitFor(() => m.deferredTools().some((t) => t.name === 'big__archive_mailbox'), 20_000, 'list_changed');

    expect((await search({ query: 'archive the old mailbox' }))[0]).toBe('big__archive_mailbox');
    expect(await search({ query: '/^big__get_weather$/' })).toEqual([]);
    expect(await search({ query: 'weather for a city', limit: 20 })).not.toContain('big__get_weather');
    // The unchanged server's tools are still found.
    expect(await search({ query: 'weather for a city' })).toContain('other__get_weather');
    expect(await search({ query: 'convert money between currencies', limit: 2 })).toEqual(
      expect.arrayContaining(['big__convert_currency', 'other__convert_currency']),
    );
  });
});
