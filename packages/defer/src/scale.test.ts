// Per-step work on the activeTools path depends on the active tools, not on the catalogue (issue 15).
// Timing is measured in bench/scale; these tests pin the structure that makes it so.
import { generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import { ToolError } from '@aibuddy/registry';
import { buildCatalog } from './__fixtures__/catalog.js';
import { createDeferredTools } from './create-deferred-tools.js';

const haiku = { provider: 'anthropic', modelId: 'claude-haiku-4-5' };

describe('the activeTools path at scale', () => {
  it('the tool map enumerates only the offered tools, and any tool is still reachable by name', () => {
    const catalog = buildCatalog({ servers: { github: 400, slack: 400 } });
    const deferred = createDeferredTools({ tools: catalog.tools, decision: catalog.decision, model: haiku });
    expect(deferred.deferred).toHaveLength(800);
    const tools = deferred.callSettings.tools;
    expect(Object.keys(tools).sort()).toEqual(['execute', 'read_file', 'tool_search']);
    expect(tools.github__create_issue).toBe(catalog.tools.github__create_issue);
    expect('slack__list_message' in tools).toBe(true);
    deferred.activeSet.markDiscovered(['slack__list_message']);
    expect(Object.keys(tools)).toEqual(['read_file', 'execute', 'tool_search', 'slack__list_message']);
  });

  it('counts how often the SDK enumerates the map per step: it never walks the deferred tools', async () => {
    const catalog = buildCatalog({ servers: { github: 300 } });
    const deferred = createDeferredTools({ tools: catalog.tools, decision: catalog.decision, model: haiku });
    const enumerated: number[] = [];
    const counting = new Proxy(deferred.callSettings.tools, {
      ownKeys: (target) => {
        const keys = Reflect.ownKeys(target);
        enumerated.push(keys.length);
        return keys;
      },
    });
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'tool_search', input: { query: 'create github issue', limit: 2 }, id: 's' }] },
      { toolCalls: [{ toolName: 'github__create_issue', input: { title: 'x' }, id: 'c' }] },
      { text: 'done' },
    ]);
    await generateText({ model, prompt: 'go', stopWhen: stepCountIs(5), ...deferred.callSettings, tools: counting });
    expect(lastToolResult(model, 'c')?.output).toMatchObject({ type: 'json', value: { ok: true } });
    expect(enumerated.length).toBeGreaterThan(0);
    // At most core (2) + tool_search + the 2 found: never the 300 deferred tools.
    expect(Math.max(...enumerated)).toBeLessThanOrEqual(5);
  });

  it('reads only the tools it offers: the deferred ones stay unbuilt (createAiTools builds a tool at its first lookup)', async () => {
    const catalog = buildCatalog({ servers: { github: 300 } });
    const read = new Set<string>();
    const watched = {} as typeof catalog.tools;
    for (const name of Object.keys(catalog.tools))
      Object.defineProperty(watched, name, {
        get: () => {
          read.add(name);
          return catalog.tools[name];
        },
        enumerable: true,
        configurable: true,
      });
    const deferred = createDeferredTools({ tools: watched, decision: catalog.decision, model: haiku });
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'tool_search', input: { query: 'create github issue', limit: 2 }, id: 's' }] },
      { toolCalls: [{ toolName: 'github__create_issue', input: { title: 'x' }, id: 'c' }] },
      { text: 'done' },
    ]);
    await generateText({ model, prompt: 'go', stopWhen: stepCountIs(5), ...deferred.callSettings });
    expect(lastToolResult(model, 'c')?.output).toMatchObject({ type: 'json', value: { ok: true } });
    // Core (2), tool_search and what the search found (at most 2): never the 300 deferred tools.
    expect(read.has('github__create_issue')).toBe(true);
    expect(read.size).toBeLessThanOrEqual(5);
  });

  it('refuses, at the discovery stage, a deferral whose tool set has no tool_search', () => {
    const catalog = buildCatalog({ servers: { github: 12 } });
    const { tool_search: _omitted, ...withoutSearch } = catalog.tools;
    let error: unknown;
    try {
      createDeferredTools({ tools: withoutSearch, decision: catalog.decision, model: haiku });
    } catch (e) {
      error = e;
    }
    expect(ToolError.isInstance(error)).toBe(true);
    expect((error as ToolError).stage).toBe('discovery');
    expect((error as ToolError).message).toMatch(/12 tools are deferred but the tool set has no tool_search/);
    expect(String((error as ToolError).hint)).toMatch(/createToolSearchConfig/);
    // Server-side searches need no tool of ours.
    expect(() =>
      createDeferredTools({
        tools: withoutSearch,
        decision: catalog.decision,
        model: { provider: 'openai', modelId: 'gpt-5.4' },
      }),
    ).not.toThrow();
  });
});
