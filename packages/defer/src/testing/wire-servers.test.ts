// The loopback wire servers reject what the real APIs reject for deferral, so a regression in how
// defer builds a request fails the wire tests with the API's own kind of error.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, tool } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { checkAnthropicRequest, startAnthropicWireServer } from './anthropic-wire-server.js';
import { checkResponsesRequest, startOpenAIWireServer } from './openai-wire-server.js';
import type { LoopbackServer } from '@aibuddy/test-utils/loopback-server';

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const deferredTool = (provider: 'anthropic' | 'openai') =>
  tool({
    description: 'A deferred tool.',
    inputSchema: jsonSchema({ type: 'object', properties: {} }),
    providerOptions: { [provider]: { deferLoading: true } },
    execute: async () => 'x',
  });

describe('Anthropic wire server checks', () => {
  it('answers a request whose tools are all deferred with a 400 the provider surfaces', async () => {
    const server = await startAnthropicWireServer([{ content: [{ type: 'text', text: 'never' }] }]);
    servers.push(server);
    const model = createAnthropic({ baseURL: server.baseURL, apiKey: 'k' })('claude-sonnet-4-5');
    await expect(generateText({ model, prompt: 'x', tools: { only: deferredTool('anthropic') }, maxRetries: 0 })).rejects.toThrow(
      /At least one tool must not be deferred/,
    );
  });

  it('flags tool_reference to a tool that is not deferred, and tool_result without its tool_use', () => {
    const tools = [{ name: 'a' }, { name: 'b', defer_loading: true }];
    const turn = (content: unknown[]) => ({
      tools,
      messages: [
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'tool_search', input: {} }] },
        { role: 'user', content },
      ],
    });
    expect(
      checkAnthropicRequest(
        turn([{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'tool_reference', tool_name: 'b' }] }]),
      ),
    ).toBeUndefined();
    expect(
      checkAnthropicRequest(
        turn([{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'tool_reference', tool_name: 'a' }] }]),
      ),
    ).toMatch(/defer_loading/);
    expect(checkAnthropicRequest(turn([{ type: 'tool_result', tool_use_id: 'zz', content: 'x' }]))).toMatch(/does not answer/);
    expect(checkAnthropicRequest({ tools: [{ name: 'a' }, { name: 'a' }] })).toMatch(/unique/);
  });
});

describe('OpenAI wire server checks', () => {
  it('answers deferred functions without a tool_search tool with a 400 the provider surfaces', async () => {
    const server = await startOpenAIWireServer({ responses: [{ output: [] }] });
    servers.push(server);
    const model = createOpenAI({ baseURL: server.baseURL, apiKey: 'k' }).responses('gpt-5.4');
    await expect(generateText({ model, prompt: 'x', tools: { d: deferredTool('openai') }, maxRetries: 0 })).rejects.toThrow(
      /defer_loading requires a tool_search tool/,
    );
  });

  it('flags duplicate names across namespaces, bad namespaces and orphan outputs', () => {
    expect(
      checkResponsesRequest({
        tools: [
          { type: 'function', name: 'x' },
          { type: 'namespace', name: 'n', description: 'd', tools: [{ type: 'function', name: 'x' }] },
        ],
      }),
    ).toMatch(/duplicate/);
    expect(checkResponsesRequest({ tools: [{ type: 'namespace', name: 'a.b', description: 'd', tools: [] }] })).toMatch(
      /invalid namespace/,
    );
    expect(checkResponsesRequest({ tools: [{ type: 'namespace', name: 'n', tools: [] }] })).toMatch(/description/);
    expect(checkResponsesRequest({ input: [{ type: 'function_call_output', call_id: 'c1', output: 'x' }] })).toMatch(
      /No tool call found/,
    );
    expect(
      checkResponsesRequest({ tools: [{ type: 'tool_search' }, { type: 'function', name: 'f', defer_loading: true }] }),
    ).toBeUndefined();
  });
});
