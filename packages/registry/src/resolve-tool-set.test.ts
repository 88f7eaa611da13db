import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import { requireCapability, resolveToolSet } from './resolve-tool-set.js';
import type { ServerToolConfig } from './server-tool-config.js';

const tool = (name: string) =>
  defineTool({ name, description: `The ${name} tool.`, inputSchema: z.object({}), execute: () => name });

const fs: ServerToolConfig = {
  key: 'filesystem',
  toolNames: ['ls', 'read_file'],
  requires: { services: ['sandbox'] },
  create: () => [tool('ls'), tool('read_file')],
  instructions: () => 'Paths are workspace-relative.',
  hooks: { toModelOutput: ({ output }) => `group:${String(output)}` },
};
const team: ServerToolConfig = {
  key: 'team',
  toolNames: ['delegate'],
  requires: { preconditions: [requireCapability('team')] },
  create: () => [tool('delegate')],
};
const mcp: ServerToolConfig = {
  key: 'mcp',
  toolNames: ['srv__a'],
  requires: { services: ['mcp'] },
  // Connected, but the server offered nothing for this run.
  create: () => [],
};

describe('resolveToolSet', () => {
  it('offers every config whose dependencies are present, with instructions and group hooks', async () => {
    const set = await resolveToolSet({ configs: [fs, team], services: { sandbox: {} }, task: { capabilities: ['team'] } });
    expect(set.tools.map((t) => t.definition.name)).toEqual(['ls', 'read_file', 'delegate']);
    expect(set.tools[0]?.configKey).toBe('filesystem');
    expect(set.tools[0]?.definition.toModelOutput?.({ toolName: 'ls', toolCallId: '1', input: {}, output: 'x' })).toBe('group:x');
    expect(set.instructions).toEqual([{ key: 'filesystem', text: 'Paths are workspace-relative.' }]);
    expect(set.excluded).toEqual([]);
  });

  it('no sandbox: an empty set with the reason, and no instructions', async () => {
    const set = await resolveToolSet({ configs: [fs], services: {} });
    expect(set.tools).toEqual([]);
    expect(set.instructions).toEqual([]);
    expect(set.excluded).toEqual([{ key: 'filesystem', reason: 'no sandbox in this host' }]);
  });

  it('missing task capability: excluded with the reason', async () => {
    const set = await resolveToolSet({ configs: [team], task: { capabilities: [] } });
    expect(set.excluded).toEqual([{ key: 'team', reason: 'team capability not available for this task' }]);
  });

  it('no MCP connection, and an MCP connection with no tools: both excluded', async () => {
    expect((await resolveToolSet({ configs: [mcp] })).excluded).toEqual([{ key: 'mcp', reason: 'no mcp in this host' }]);
    expect((await resolveToolSet({ configs: [mcp], services: { mcp: {} } })).excluded).toEqual([
      { key: 'mcp', reason: 'its dependencies yielded no tools for this run' },
    ]);
  });

  it("registering grants nothing: only the run's toolKeys are offered", async () => {
    const set = await resolveToolSet({
      configs: [fs, team],
      toolKeys: ['team', 'nope'],
      services: { sandbox: {} },
      task: { capabilities: ['team'] },
    });
    expect(set.tools.map((t) => t.definition.name)).toEqual(['delegate']);
    expect(set.excluded).toEqual([
      { key: 'nope', reason: 'no config with key "nope" is registered in this host' },
      { key: 'filesystem', reason: "not in this run's toolKeys" },
    ]);
  });

  it('refuses a config that creates a tool it does not declare', async () => {
    const sneaky: ServerToolConfig = { key: 's', toolNames: ['a'], create: () => [tool('b')] };
    await expect(resolveToolSet({ configs: [sneaky] })).rejects.toThrow(/\[discovery\].*not among its toolNames/);
  });
});
