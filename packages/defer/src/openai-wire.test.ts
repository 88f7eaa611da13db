// Wire-level tests: the real @ai-sdk/openai provider against a loopback Responses / Chat Completions server.
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs, streamText } from 'ai';
import type { LanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCatalog } from './__fixtures__/catalog.js';
import { createDeferredTools } from './create-deferred-tools.js';
import type { DeferModelInfo } from './choose-defer-path.js';
import {
  functionCallItem,
  messageItem,
  startOpenAIWireServer,
  toolSearchCallItem,
  toolSearchOutputItem,
} from './testing/openai-wire-server.js';
import type { ChatScript, OpenAIWireServer, ResponsesScript } from './testing/openai-wire-server.js';

const servers: OpenAIWireServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type Mode = 'generateText' | 'streamText';

async function setup(
  script: { responses?: ResponsesScript; chat?: ChatScript },
  model: (baseURL: string) => DeferModelInfo,
  api: 'responses' | 'chat' | 'compatible',
  override: 'auto' | 'native' = 'auto',
) {
  const server = await startOpenAIWireServer(script);
  servers.push(server);
  const calls: Array<{ name: string; input: unknown }> = [];
  const catalog = buildCatalog({ servers: { slack: 3, github: 12 }, calls });
  const info = model(server.baseURL);
  const deferred = createDeferredTools({ tools: catalog.tools, decision: catalog.decision, model: info, override });
  const provider = createOpenAI({ baseURL: server.baseURL, apiKey: 'test-key' });
  const languageModel: LanguageModel =
    api === 'responses'
      ? provider.responses(info.modelId)
      : api === 'chat'
        ? provider.chat(info.modelId)
        : createOpenAICompatible({ name: 'together', baseURL: server.baseURL, apiKey: 'test-key' }).chatModel(info.modelId);
  return { server, calls, catalog, deferred, languageModel };
}

async function run(mode: Mode, s: Awaited<ReturnType<typeof setup>>) {
  const settings = { model: s.languageModel, prompt: 'File a bug.', stopWhen: stepCountIs(6), ...s.deferred.callSettings };
  if (mode === 'generateText') return (await generateText(settings)).text;
  return await streamText(settings).text;
}

const githubNamespace = {
  type: 'namespace',
  name: 'github',
  description: 'Tools of the "github" MCP server.',
  tools: [
    {
      type: 'function',
      name: 'github__create_issue',
      description: 'Create a github issue.',
      parameters: { type: 'object', properties: { title: { type: 'string' } } },
      defer_loading: true,
    },
  ],
};

describe.each(['generateText', 'streamText'] as const)('OpenAI Responses native path over the wire (%s)', (mode) => {
  it('namespaces per server, defer_loading on exactly the deferred functions, hosted tool_search_call / tool_search_output end to end', async () => {
    const s = await setup(
      {
        responses: [
          {
            output: [
              toolSearchCallItem('tsc_1', { query: 'create a github issue' }),
              toolSearchOutputItem('tso_1', [githubNamespace]),
              functionCallItem('fc_1', 'call_1', 'github__create_issue', { title: 'Bug' }, 'github'),
            ],
          },
          { output: [messageItem('msg_2', 'Filed.')] },
        ],
      },
      () => ({ provider: 'openai', modelId: 'gpt-5.4' }),
      'responses',
      'native',
    );
    expect(s.deferred.path).toBe('openai-native');
    expect(await run(mode, s)).toBe('Filed.');

    const bodies = s.server.responsesBodies();
    expect(bodies).toHaveLength(2);
    const tools = bodies[0].tools as any[];
    expect(tools).toContainEqual({ type: 'tool_search' });
    const namespaces = tools.filter((t) => t.type === 'namespace');
    expect(namespaces.map((n) => n.name)).toEqual(['slack', 'github']);
    const github = namespaces.find((n) => n.name === 'github');
    const slack = namespaces.find((n) => n.name === 'slack');
    expect(github.tools).toHaveLength(12);
    expect(github.tools.every((t: any) => t.defer_loading === true)).toBe(true);
    expect(slack.tools.map((t: any) => t.name)).toEqual(s.catalog.decision.direct);
    expect(slack.tools.some((t: any) => 'defer_loading' in t)).toBe(false);
    const topLevel = tools.filter((t) => t.type === 'function').map((t) => t.name);
    expect(topLevel).toEqual(s.catalog.core);
    const deferredOnWire = namespaces
      .flatMap((n) => n.tools)
      .filter((t: any) => t.defer_loading === true)
      .map((t: any) => t.name)
      .sort();
    expect(deferredOnWire).toEqual(s.catalog.decision.deferred.map((d) => d.name).sort());
    expect(JSON.stringify(bodies[1].tools)).toBe(JSON.stringify(bodies[0].tools));

    const input = bodies[1].input as any[];
    expect(input).toContainEqual(
      expect.objectContaining({ type: 'function_call', call_id: 'call_1', name: 'github__create_issue', namespace: 'github' }),
    );
    expect(input).toContainEqual(expect.objectContaining({ type: 'function_call_output', call_id: 'call_1' }));
    // The hosted search items go back by reference (store is on by default), so the loaded tools stay loaded.
    expect(input).toContainEqual({ type: 'item_reference', id: 'tso_1' });
    expect(s.calls).toEqual([{ name: 'github__create_issue', input: { title: 'Bug' } }]);
    expect(s.deferred.activeSet.discovered()).toContain('github__create_issue');
  });
});

describe.each(['generateText', 'streamText'] as const)('OpenAI activeTools paths over the wire (%s)', (mode) => {
  it('Responses API on a third-party base URL: only active tools, and the found tool at the next step', async () => {
    const s = await setup(
      {
        responses: [
          { output: [functionCallItem('fc_1', 'call_1', 'tool_search', { query: 'create github issue', limit: 1 })] },
          { output: [functionCallItem('fc_2', 'call_2', 'github__create_issue', { title: 'x' })] },
          { output: [messageItem('msg_3', 'ok')] },
        ],
      },
      (baseURL) => ({ provider: 'openai', modelId: 'gpt-5.4', baseURL }),
      'responses',
    );
    expect(s.deferred.path).toBe('active-tools');
    expect(s.deferred.reason).toMatch(/not https:\/\/api\.openai\.com/);
    expect(await run(mode, s)).toBe('ok');
    const bodies = s.server.responsesBodies();
    const names = (b: any) => (b.tools as any[]).map((t) => t.name).sort();
    expect((bodies[0].tools as any[]).every((t) => t.type === 'function' && !('defer_loading' in t))).toBe(true);
    expect(names(bodies[0])).toEqual([...s.catalog.core, ...s.catalog.decision.direct, 'tool_search'].sort());
    expect(names(bodies[1])).toEqual(
      [...s.catalog.core, ...s.catalog.decision.direct, 'github__create_issue', 'tool_search'].sort(),
    );
    expect(s.calls).toEqual([{ name: 'github__create_issue', input: { title: 'x' } }]);
  });

  it.each([
    ['@ai-sdk/openai-compatible', 'openai-compatible', 'compatible'],
    ['@ai-sdk/openai .chat()', 'openai.chat', 'chat'],
  ] as const)(
    'an OpenAI-compatible Chat Completions endpoint (%s): only active tools, and the found tool at the next step',
    async (_label, providerId, api) => {
      const s = await setup(
        {
          chat: [
            { toolCalls: [{ id: 'call_1', name: 'tool_search', arguments: { query: 'list slack or github issues', limit: 1 } }] },
            { toolCalls: [{ id: 'call_2', name: 'github__list_issue', arguments: { title: 'x' } }] },
            { text: 'ok' },
          ],
        },
        (baseURL) => ({ provider: providerId, modelId: 'llama-3.3-70b', baseURL }),
        api,
      );
      expect(s.deferred.path).toBe('active-tools');
      expect(await run(mode, s)).toBe('ok');
      const bodies = s.server.chatBodies();
      expect(bodies).toHaveLength(3);
      const names = (b: any) => (b.tools as any[]).map((t) => t.function.name).sort();
      expect(names(bodies[0])).toEqual([...s.catalog.core, ...s.catalog.decision.direct, 'tool_search'].sort());
      expect(names(bodies[1])).toContain('github__list_issue');
      expect(names(bodies[1])).toHaveLength(names(bodies[0]).length + 1);
      expect(s.calls).toEqual([{ name: 'github__list_issue', input: { title: 'x' } }]);
    },
  );
});
