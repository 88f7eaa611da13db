// Wire-level tests: the real @ai-sdk/anthropic provider against a loopback Messages API server.
import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, stepCountIs, streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCatalog, buildCatalogWithDiscovery } from './__fixtures__/catalog.js';
import { createDeferredTools, toolSearchPresentation } from './create-deferred-tools.js';
import { chooseDeferPath } from './choose-defer-path.js';
import type { AnthropicToolSearchKind } from './create-deferred-tools.js';
import type { DeferModelInfo } from './choose-defer-path.js';
import { startAnthropicWireServer, toolSearchResultBlock } from './testing/anthropic-wire-server.js';
import type { AnthropicScript, AnthropicWireServer } from './testing/anthropic-wire-server.js';

const servers: AnthropicWireServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function setup(
  script: AnthropicScript,
  model: (baseURL: string) => DeferModelInfo,
  opts: { override?: 'auto' | 'native'; search?: AnthropicToolSearchKind } = {},
) {
  const server = await startAnthropicWireServer(script);
  servers.push(server);
  const calls: Array<{ name: string; input: unknown }> = [];
  const info = model(server.baseURL);
  const path = chooseDeferPath({ ...info, override: opts.override ?? 'auto' }).path;
  const catalog = buildCatalog({ servers: { slack: 3, github: 12 }, calls, presentation: toolSearchPresentation(path) });
  const deferred = createDeferredTools({
    tools: catalog.tools,
    decision: catalog.decision,
    model: info,
    override: opts.override ?? 'auto',
    anthropicToolSearch: opts.search,
  });
  const provider = createAnthropic({ baseURL: server.baseURL, apiKey: 'test-key' });
  return { server, calls, catalog, deferred, languageModel: provider(info.modelId) };
}

type Mode = 'generateText' | 'streamText';
async function run(mode: Mode, s: Awaited<ReturnType<typeof setup>>, prompt = 'File a bug about the login page.') {
  const settings = { model: s.languageModel, prompt, stopWhen: stepCountIs(6), ...s.deferred.callSettings };
  if (mode === 'generateText') return (await generateText(settings)).text;
  const result = streamText(settings);
  return await result.text;
}

const toolNames = (body: any): string[] => (body.tools as Array<{ name: string }>).map((t) => t.name).sort();
const deferredOnWire = (body: any): string[] =>
  (body.tools as Array<{ name: string; defer_loading?: boolean }>)
    .filter((t) => t.defer_loading === true)
    .map((t) => t.name)
    .sort();
const toolResults = (body: any): any[] =>
  (body.messages as Array<{ role: string; content: unknown }>)
    .flatMap((m) => (m.role === 'user' && Array.isArray(m.content) ? m.content : []))
    .filter((b: any) => b.type === 'tool_result');

describe.each(['generateText', 'streamText'] as const)('Anthropic native path over the wire (%s)', (mode) => {
  it('our tool_search answers with tool_reference blocks; defer_loading marks exactly the deferred tools; the tool array never changes', async () => {
    const s = await setup(
      (body, index) => {
        if (index === 0)
          return {
            content: [
              { type: 'tool_use', id: 'toolu_1', name: 'tool_search', input: { query: 'create github issue', limit: 3 } },
            ],
          };
        if (index === 1) {
          const refs = toolResults(body).flatMap((r) => (Array.isArray(r.content) ? r.content : []));
          const name = refs.find((c: any) => c.type === 'tool_reference')?.tool_name ?? 'missing';
          return {
            content: [
              { type: 'text', text: 'Found it.' },
              { type: 'tool_use', id: 'toolu_2', name, input: { title: 'Login broken' } },
            ],
          };
        }
        return { content: [{ type: 'text', text: 'Filed.' }] };
      },
      () => ({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' }),
      { override: 'native' },
    );
    expect(s.deferred.path).toBe('anthropic-native');
    const text = await run(mode, s);
    expect(text).toContain('Filed.');

    const bodies = s.server.bodies();
    expect(bodies).toHaveLength(3);
    expect(bodies.every((b) => Boolean(b.stream) === (mode === 'streamText'))).toBe(true);
    const deferredNames = s.catalog.decision.deferred.map((d) => d.name).sort();
    expect(deferredOnWire(bodies[0])).toEqual(deferredNames);
    const search = bodies[0].tools.find((t: any) => t.name === 'tool_search');
    expect(search).toMatchObject({ name: 'tool_search', input_schema: { type: 'object' } });
    expect(search.defer_loading).toBeUndefined();
    expect(toolNames(bodies[0])).toEqual(
      [...s.catalog.core, ...s.catalog.decision.direct, ...deferredNames, 'tool_search'].sort(),
    );
    // Identical, byte for byte, at every step: prompt caching holds.
    for (const body of bodies) expect(JSON.stringify(body.tools)).toBe(JSON.stringify(bodies[0].tools));

    const searchResult = toolResults(bodies[1]).find((r) => r.tool_use_id === 'toolu_1');
    expect(searchResult.content).toEqual([
      { type: 'tool_reference', tool_name: 'github__create_issue' },
      expect.objectContaining({ type: 'tool_reference' }),
      expect.objectContaining({ type: 'tool_reference' }),
    ]);
    expect(s.calls).toEqual([{ name: 'github__create_issue', input: { title: 'Login broken' } }]);
    expect(toolResults(bodies[2]).find((r) => r.tool_use_id === 'toolu_2')).toBeDefined();
    expect(s.deferred.activeSet.discovered()).toContain('github__create_issue');
  });

  it('Anthropic server-side BM25: server_tool_use / tool_search_tool_result / tool_reference flow end to end', async () => {
    const s = await setup(
      [
        {
          content: [
            { type: 'text', text: 'Let me find the tool.' },
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'tool_search_tool_bm25', input: { query: 'github issue create' } },
            toolSearchResultBlock('srvtoolu_1', ['github__create_issue', 'github__list_issue']),
            { type: 'tool_use', id: 'toolu_9', name: 'github__create_issue', input: { title: 'Bug' } },
          ],
        },
        { content: [{ type: 'text', text: 'Done.' }] },
      ],
      () => ({ provider: 'anthropic', modelId: 'claude-opus-4-5' }),
      { override: 'native', search: 'bm25' },
    );
    const text = await run(mode, s);
    expect(text).toContain('Done.');
    const bodies = s.server.bodies();
    expect(bodies).toHaveLength(2);
    expect(bodies[0].tools).toContainEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    expect(deferredOnWire(bodies[0])).toEqual(s.catalog.decision.deferred.map((d) => d.name).sort());
    expect(JSON.stringify(bodies[1].tools)).toBe(JSON.stringify(bodies[0].tools));
    // The server blocks go back to the API as they came, so the loaded definitions stay loaded.
    const assistant = bodies[1].messages.find((m: any) => m.role === 'assistant');
    expect(assistant.content).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'server_tool_use', id: 'srvtoolu_1', name: 'tool_search_tool_bm25' }),
        expect.objectContaining({
          type: 'tool_search_tool_result',
          tool_use_id: 'srvtoolu_1',
          content: expect.objectContaining({
            tool_references: [
              { type: 'tool_reference', tool_name: 'github__create_issue' },
              { type: 'tool_reference', tool_name: 'github__list_issue' },
            ],
          }),
        }),
        expect.objectContaining({ type: 'tool_use', id: 'toolu_9', name: 'github__create_issue' }),
      ]),
    );
    expect(s.calls).toEqual([{ name: 'github__create_issue', input: { title: 'Bug' } }]);
    expect(s.deferred.activeSet.discovered()).toContain('github__list_issue');
  });
});

describe.each(['generateText', 'streamText'] as const)('Anthropic activeTools path over the wire (%s)', (mode) => {
  const activeFlow: AnthropicScript = (_body, index) => {
    if (index === 0)
      return {
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'tool_search', input: { query: 'create github issue', limit: 1 } }],
      };
    if (index === 1)
      return { content: [{ type: 'tool_use', id: 'toolu_2', name: 'github__create_issue', input: { title: 'x' } }] };
    return { content: [{ type: 'text', text: 'ok' }] };
  };

  it.each([
    [
      'the same model on a third-party base URL',
      (baseURL: string): DeferModelInfo => ({ provider: 'anthropic', modelId: 'claude-sonnet-4-5', baseURL }),
    ],
    ['a Haiku model', (): DeferModelInfo => ({ provider: 'anthropic', modelId: 'claude-haiku-4-5' })],
  ])('%s offers only the active tools, and a found tool at the next step', async (_label, model) => {
    const s = await setup(activeFlow, model);
    expect(s.deferred.path).toBe('active-tools');
    expect(await run(mode, s)).toBe('ok');
    const bodies = s.server.bodies();
    expect(bodies).toHaveLength(3);
    expect(toolNames(bodies[0])).toEqual([...s.catalog.core, ...s.catalog.decision.direct, 'tool_search'].sort());
    expect(deferredOnWire(bodies[0])).toEqual([]);
    expect(toolNames(bodies[1])).toEqual(
      [...s.catalog.core, ...s.catalog.decision.direct, 'github__create_issue', 'tool_search'].sort(),
    );
    const found = toolResults(bodies[1]).find((r) => r.tool_use_id === 'toolu_1');
    expect(JSON.stringify(found)).toContain('issue_id');
    expect(s.calls).toEqual([{ name: 'github__create_issue', input: { title: 'x' } }]);
  });

  it('a call to an undiscovered tool comes back as a discovery error telling the model to search', async () => {
    const s = await setup(
      [
        { content: [{ type: 'tool_use', id: 'toolu_x', name: 'github__delete_issue', input: { title: 'x' } }] },
        { content: [{ type: 'text', text: 'ok' }] },
      ],
      () => ({ provider: 'anthropic', modelId: 'claude-haiku-4-5' }),
    );
    await run(mode, s);
    const result = toolResults(s.server.bodies()[1]).find((r) => r.tool_use_id === 'toolu_x');
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/\[discovery\] github__delete_issue: .*Call tool_search first/);
    expect(s.calls).toEqual([]);
  });
});

describe.each(['generateText', 'streamText'] as const)("with @aibuddy/discovery's own tool_search (%s)", (mode) => {
  it('Anthropic native: its results go out as tool_reference blocks and land in the shared active set', async () => {
    const server = await startAnthropicWireServer((body, index) => {
      if (index === 0)
        return {
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'tool_search', input: { query: 'export github issue', limit: 2 } }],
        };
      if (index === 1)
        return { content: [{ type: 'tool_use', id: 'toolu_2', name: 'github__export_issue', input: { title: 'y' } }] };
      return { content: [{ type: 'text', text: 'exported' }] };
    });
    servers.push(server);
    const calls: Array<{ name: string; input: unknown }> = [];
    const catalog = await buildCatalogWithDiscovery({ servers: { slack: 3, github: 12 }, calls, presentation: 'tool-reference' });
    const deferred = createDeferredTools({
      tools: catalog.tools,
      decision: catalog.decision,
      activeSet: catalog.activeSet,
      model: { provider: 'anthropic', modelId: 'claude-sonnet-4-5', baseURL: server.baseURL },
      override: 'native',
    });
    const settings = {
      model: createAnthropic({ baseURL: server.baseURL, apiKey: 'k' })('claude-sonnet-4-5'),
      prompt: 'export',
      stopWhen: stepCountIs(5),
      ...deferred.callSettings,
    };
    const text = mode === 'generateText' ? (await generateText(settings)).text : await streamText(settings).text;
    expect(text).toBe('exported');
    const bodies = server.bodies();
    // discovery's tool_search keeps its own description and schema on the wire.
    expect(bodies[0].tools.find((t: any) => t.name === 'tool_search').input_schema.properties).toHaveProperty('regex');
    const result = toolResults(bodies[1]).find((r) => r.tool_use_id === 'toolu_1');
    expect(result.content[0]).toEqual({ type: 'tool_reference', tool_name: 'github__export_issue' });
    expect(result.content.every((c: any) => c.type === 'tool_reference')).toBe(true);
    expect(catalog.activeSet.discovered()).toContain('github__export_issue');
    expect(calls).toEqual([{ name: 'github__export_issue', input: { title: 'y' } }]);
    for (const body of bodies) expect(JSON.stringify(body.tools)).toBe(JSON.stringify(bodies[0].tools));
  });

  it('activeTools: the found tool is offered at the next step', async () => {
    const server = await startAnthropicWireServer((_body, index) => {
      if (index === 0)
        return {
          content: [
            { type: 'tool_use', id: 'toolu_1', name: 'tool_search', input: { query: '/^github__(archive|export)_issue$/' } },
          ],
        };
      if (index === 1)
        return { content: [{ type: 'tool_use', id: 'toolu_2', name: 'github__archive_issue', input: { title: 'z' } }] };
      return { content: [{ type: 'text', text: 'archived' }] };
    });
    servers.push(server);
    const catalog = await buildCatalogWithDiscovery({ servers: { github: 12 } });
    const deferred = createDeferredTools({
      tools: catalog.tools,
      decision: catalog.decision,
      activeSet: catalog.activeSet,
      model: { provider: 'anthropic', modelId: 'claude-haiku-4-5' },
    });
    const settings = {
      model: createAnthropic({ baseURL: server.baseURL, apiKey: 'k' })('claude-haiku-4-5'),
      prompt: 'archive',
      stopWhen: stepCountIs(5),
      ...deferred.callSettings,
    };
    const text = mode === 'generateText' ? (await generateText(settings)).text : await streamText(settings).text;
    expect(text).toBe('archived');
    const bodies = server.bodies();
    expect(toolNames(bodies[0])).toEqual(['execute', 'read_file', 'tool_search']);
    expect(toolNames(bodies[1])).toEqual([
      'execute',
      'github__archive_issue',
      'github__export_issue',
      'read_file',
      'tool_search',
    ]);
  });
});
