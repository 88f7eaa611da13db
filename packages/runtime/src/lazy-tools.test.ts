// A host with 10,000 MCP tools offers a few per step: the AI SDK tool of each is built when it is
// first looked up, not for the whole catalogue at every (re)composition.
import { generateText, stepCountIs } from 'ai';
import { defineTool } from '@aibuddy/registry';
import type { AnyToolDefinition, ResolvedTool } from '@aibuddy/registry';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import { describe, expect, it } from 'vitest';
import { createAiTools } from './create-ai-tools.js';

/** N tools whose schema counts how often it is read (the SDK reads it when it builds a tool). */
function catalogue(n: number): { resolved: ResolvedTool[]; reads: () => number } {
  let reads = 0;
  const resolved = Array.from({ length: n }, (_, i) => {
    const definition = defineTool({
      name: `t${i}`,
      description: `Tool ${i}.`,
      inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
      execute: async (input: { q?: string }) => `t${i} got ${input.q ?? ''}`,
    }) as AnyToolDefinition;
    const schema = definition.inputJsonSchema;
    Object.defineProperty(definition, 'inputJsonSchema', {
      get: () => {
        reads++;
        return schema;
      },
    });
    return { definition, core: false, configKey: 'cat' } satisfies ResolvedTool;
  });
  return { resolved, reads: () => reads };
}

describe('createAiTools builds each tool when it is first looked up', () => {
  it('1,000 tools: every name is there, none is built until asked for, and one lookup builds one', () => {
    const { resolved, reads } = catalogue(1000);
    const tools = createAiTools(resolved);
    expect(Object.keys(tools)).toHaveLength(1000);
    expect('t999' in tools).toBe(true);
    expect(reads()).toBe(0);
    const first = tools.t7;
    expect(first?.description).toBe('Tool 7.');
    expect(reads()).toBe(1);
    // The same object on every lookup, built once.
    expect(tools.t7).toBe(first);
    expect(reads()).toBe(1);
  });

  it('a built tool runs under generateText; assignment and delete work as on a plain object', async () => {
    const { resolved } = catalogue(50);
    const tools = createAiTools(resolved);
    const model = scriptedModel([{ toolCalls: [{ toolName: 't42', input: { q: 'x' }, id: 'c' }] }, { text: 'ok' }]);
    await generateText({ model, tools, activeTools: ['t42'], prompt: 'go', stopWhen: stepCountIs(3) });
    expect(lastToolResult(model, 'c')?.output).toEqual({ type: 'text', value: 't42 got x' });
    const replacement = tools.t1!;
    tools.t2 = replacement;
    expect(tools.t2).toBe(replacement);
    delete tools.t3;
    expect('t3' in tools).toBe(false);
    expect(Object.keys(tools)).toHaveLength(49);
  });
});
