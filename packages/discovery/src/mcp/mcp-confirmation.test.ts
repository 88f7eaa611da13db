// Which MCP tool calls wait for a person: the server's annotations and the config's `confirm`,
// over a real stdio server, through the runtime's confirmation gate.
import { generateText, stepCountIs } from 'ai';
import { resolveToolSet } from '@aibuddy/registry';
import { createAiTools, createConfirmationGate } from '@aibuddy/runtime';
import type { AuthorizationRequest } from '@aibuddy/runtime';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAll, connect, fixture } from '../__fixtures__/mcp-helpers.js';
import { parseMcpConfig } from './config.js';

afterEach(closeAll);

const TOOLS = ['read_notes', 'delete_note', 'add_note', 'odd_hints'];

/** Calls every annotated tool of `server` once; returns what the person was asked and the results. */
async function callEach(server: string, entry: Record<string, unknown>, approve: boolean) {
  const m = await connect({ [server]: entry });
  const asked: AuthorizationRequest[] = [];
  const confirmation = createConfirmationGate({
    ask: async (request) => {
      asked.push(request);
      return { approved: approve, reason: approve ? 'fine' : 'not today' };
    },
  });
  const set = await resolveToolSet({ configs: m.toolConfigs() });
  const model = scriptedModel([
    { toolCalls: TOOLS.map((t) => ({ toolName: `${server}__${t}`, input: { id: 'n1' }, id: t })) },
    { text: 'done' },
  ]);
  await generateText({ model, tools: createAiTools(set, { confirmation }), prompt: 'go', stopWhen: stepCountIs(3) });
  const results = Object.fromEntries(TOOLS.map((t) => [t, lastToolResult(model, t)?.output]));
  return { asked, results, manager: m };
}

describe('MCP calls that wait for a person', () => {
  it('by default only the tool the server marks destructive asks, with its input; a refusal reaches the model as execution-denied', async () => {
    const { asked, results, manager } = await callEach('notes', fixture('--tools=0', '--annotated'), false);
    expect(asked.map((r) => r.toolName)).toEqual(['notes__delete_note']);
    expect(asked[0]).toMatchObject({
      target: 'delete_note {"id":"n1"}',
      scope: 'MCP server "notes"',
      impact: expect.stringMatching(/marks this tool as destructive/),
      input: { id: 'n1' },
    });
    expect(results.delete_note).toEqual({ type: 'execution-denied', reason: expect.stringMatching(/not today/) });
    for (const t of ['read_notes', 'add_note', 'odd_hints'])
      expect(results[t]).toEqual({ type: 'text', value: `${t} ok {"id":"n1"}` });
    // The server's hints are kept as given; hints of the wrong type are dropped, not the tool.
    const infos = new Map(manager.tools().map((t) => [t.originalName, t]));
    expect(infos.get('delete_note')?.annotations).toEqual({ title: 'Delete a note', readOnlyHint: false, destructiveHint: true });
    expect(infos.get('odd_hints')?.annotations).toBeUndefined();
  });

  it('"confirm": "always" asks for every call, and an approval runs it', async () => {
    const { asked, results } = await callEach('notes', { ...fixture('--tools=0', '--annotated'), confirm: 'always' }, true);
    expect(asked.map((r) => r.toolName).sort()).toEqual(TOOLS.map((t) => `notes__${t}`).sort());
    expect(asked.find((r) => r.toolName === 'notes__read_notes')?.impact).toMatch(/"confirm": "always"/);
    for (const t of TOOLS) expect(results[t]).toEqual({ type: 'text', value: `${t} ok {"id":"n1"}` });
  });

  it('"confirm": "never" asks for none, the destructive tool included', async () => {
    const { asked, results } = await callEach('notes', { ...fixture('--tools=0', '--annotated'), confirm: 'never' }, false);
    expect(asked).toEqual([]);
    expect(results.delete_note).toEqual({ type: 'text', value: 'delete_note ok {"id":"n1"}' });
  });

  it('an unknown "confirm" value is a config error that names the values', () => {
    expect(() => parseMcpConfig({ mcpServers: { s: { command: 'node', confirm: 'sometimes' } } })).toThrow(
      /"confirm" must be "destructive" .*"always" or "never"/,
    );
    expect(parseMcpConfig({ mcpServers: { s: { command: 'node', confirm: 'always' } } }).servers.s).toMatchObject({
      confirm: 'always',
    });
    expect(parseMcpConfig({ mcpServers: { s: { command: 'node', confirm: 'always' } } }).warnings).toEqual([]);
  });
});
