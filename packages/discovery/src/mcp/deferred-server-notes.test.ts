import { resolveToolSet } from '@aibuddy/registry';
import { afterEach, describe, expect, it } from 'vitest';
import { combineCatalogs, staticCatalog } from '../catalog.js';
import { closeAll, connect, fixture } from '../__fixtures__/mcp-helpers.js';
import { createToolSearchConfig } from '../tool-search/tool-search-config.js';
import type { ToolSearchResult } from '../tool-search/tool-search-config.js';
import type { McpManager } from './mcp-manager.js';

afterEach(closeAll);

// A host with hundreds of MCP servers: each ready server's usage notes (up to 2,000 characters) in the
// system prompt cost every step, though the model sees none of a deferred server's tools until it
// searches. With `deferredServerNotes: 'tool-search'` they travel with that server's tools instead.
async function runOf(manager: McpManager) {
  const configs = [createToolSearchConfig({ catalog: manager }), ...manager.toolConfigs()];
  const set = await resolveToolSet({ configs });
  const search = set.tools.find((t) => t.definition.name === 'tool_search')!.definition;
  return {
    notes: set.instructions.map((i) => i.text).join('\n'),
    search: async (query: string) => (await search.execute({ query }, {} as never)) as ToolSearchResult,
  };
}

const SERVERS = {
  // 11 tools: deferred. 3 tools: direct.
  big: fixture('--tools=11', '--instructions=Forecasts are in kelvin.'),
  small: fixture('--tools=3', '--instructions=Issues need a label.'),
};

describe("a deferred MCP server's usage notes", { timeout: 60_000 }, () => {
  it("with 'tool-search': leave the run notes and come with that server's tools in tool_search results", async () => {
    const run = await runOf(await connect(SERVERS, { deferredServerNotes: 'tool-search' }));
    // A direct server's tools are offered at once: its notes stay where the model sees them.
    expect(run.notes).toContain('MCP server "small" (tools named small__*): Issues need a label.');
    expect(run.notes).not.toContain('kelvin');
    expect(run.notes).toMatch(/usage notes of their servers come with them/i);

    const found = await run.search('weather forecast');
    expect(found.tools.map((t) => t.name)).toContain('big__get_forecast');
    expect(found.notes).toEqual([{ server: 'big', text: 'Forecasts are in kelvin.' }]);
    // Nothing found: no notes.
    expect((await run.search('/^nothing_matches_this$/')).notes).toBeUndefined();
  });

  it("by default ('instructions'): stay in the run notes, and results carry none", async () => {
    const run = await runOf(await connect(SERVERS));
    expect(run.notes).toContain('MCP server "big" (tools named big__*): Forecasts are in kelvin.');
    expect(run.notes).toContain('Issues need a label.');
    expect(run.notes).not.toMatch(/usage notes of their servers/i);
    const found = await run.search('weather forecast');
    expect(found.tools.map((t) => t.name)).toContain('big__get_forecast');
    expect(found.notes).toBeUndefined();
  });

  it('follow the gate: a server that becomes deferred mid-run (the total passes 30) moves its notes', async () => {
    // 3 + 3 tools: both direct, both servers' notes in the run notes.
    const manager = await connect(
      {
        a: fixture('--tools=3', '--instructions=Notes of a.', '--special'),
        b: fixture('--tools=3', '--instructions=Notes of b.'),
      },
      { deferredServerNotes: 'tool-search' },
    );
    const configs = manager.toolConfigs();
    const notesNow = () =>
      configs
        .map((c) => c.instructions?.({ services: {}, task: {} }))
        .filter(Boolean)
        .join('\n');
    expect(notesNow()).toContain('Notes of a.');
    expect(manager.serverNotes?.('a')).toBeUndefined();
    // add_tool adds tools to "a" and sends list_changed: 27 more makes 33 MCP tools, over 30.
    for (let i = 0; i < 27; i++) await manager.callTool('a__add_tool', { name: `extra_${i}` });
    await expect.poll(() => manager.decision().allDeferred, { timeout: 10_000 }).toBe(true);
    expect(notesNow()).not.toContain('Notes of a.');
    expect(notesNow()).not.toContain('Notes of b.');
    expect(manager.serverNotes?.('a')).toBe('Notes of a.');
    expect(manager.serverNotes?.('b')).toBe('Notes of b.');
  });

  it('combineCatalogs asks each part for a server, first answer wins', () => {
    const a = { ...staticCatalog([]), serverNotes: (s: string) => (s === 'x' ? 'x from a' : undefined) };
    const b = { ...staticCatalog([]), serverNotes: (s: string) => `${s} from b` };
    const combined = combineCatalogs(a, staticCatalog([]), b);
    expect(combined.serverNotes?.('x')).toBe('x from a');
    expect(combined.serverNotes?.('y')).toBe('y from b');
    expect(combineCatalogs(staticCatalog([])).serverNotes?.('x')).toBeUndefined();
  });
});
