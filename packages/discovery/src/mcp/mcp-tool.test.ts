import { generateText, stepCountIs } from 'ai';
import { resolveToolSet } from '@aibuddy/registry';
import { createAiTools } from '@aibuddy/runtime';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import { describe, expect, it } from 'vitest';
import { createMcpToolDefinition, mcpResultToModelOutput, normalizeMcpInputSchema } from './mcp-tool.js';
import type { McpCallResult, McpToolInfo } from './mcp-tool.js';

const info = (schema: unknown): McpToolInfo => {
  const { schema: inputSchema, fallback } = normalizeMcpInputSchema(schema);
  return {
    name: 'srv__tool',
    originalName: 'tool.v2',
    server: 'srv',
    description: 'A tool.',
    inputSchema,
    schemaFallback: fallback,
  };
};

describe('MCP results for the model', () => {
  it('maps text, structured content, images and resources', () => {
    expect(
      mcpResultToModelOutput({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toEqual({ type: 'text', value: 'a\nb' });
    expect(mcpResultToModelOutput({ content: [], structuredContent: { n: 1 } })).toEqual({ type: 'json', value: { n: 1 } });
    expect(
      mcpResultToModelOutput({
        content: [
          { type: 'text', text: 'see' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'file:///x', text: 'body' } },
          { type: 'resource_link', uri: 'file:///y', name: 'y' },
        ],
      }),
    ).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'see' },
        { type: 'image-data', data: 'AAAA', mediaType: 'image/png' },
        { type: 'text', text: '[resource file:///x]\nbody' },
        { type: 'text', text: '[resource link] y file:///y' },
      ],
    });
  });

  it('gives a schema that is not a top-level object a permissive one', () => {
    expect(normalizeMcpInputSchema({ type: 'string' })).toEqual({
      schema: { type: 'object', properties: {}, additionalProperties: true },
      fallback: true,
    });
    expect(normalizeMcpInputSchema({ properties: { a: { type: 'string' } } })).toEqual({
      schema: { type: 'object', properties: { a: { type: 'string' } } },
      fallback: true,
    });
    expect(normalizeMcpInputSchema(undefined).fallback).toBe(true);
  });

  it('runs under createAiTools: original name to the server, isError as an execution error for the model', async () => {
    const calls: string[] = [];
    const definition = createMcpToolDefinition(
      info({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }),
      async (i, args) => {
        calls.push(`${i.originalName}:${JSON.stringify(args)}`);
        return (
          args.q === 'bad'
            ? { isError: true, content: [{ type: 'text', text: 'quota exceeded' }] }
            : { content: [{ type: 'text', text: 'fine' }] }
        ) as McpCallResult;
      },
    );
    const set = await resolveToolSet({
      configs: [{ key: 'mcp:srv', toolNames: ['srv__tool'], core: false, create: () => [definition] }],
    });
    const model = scriptedModel([
      {
        toolCalls: [
          { toolName: 'srv__tool', input: { q: 'ok' }, id: 'a' },
          { toolName: 'srv__tool', input: { q: 'bad' }, id: 'b' },
          { toolName: 'srv__tool', input: {}, id: 'c' },
        ],
      },
      { text: 'end' },
    ]);
    await generateText({ model, tools: createAiTools(set), prompt: 'go', stopWhen: stepCountIs(3) });
    expect(lastToolResult(model, 'a')?.output).toEqual({ type: 'text', value: 'fine' });
    expect(lastToolResult(model, 'b')?.output).toEqual({ type: 'error-text', value: '[execution] srv__tool: quota exceeded' });
    expect(String(lastToolResult(model, 'c')?.output.value)).toMatch(/^\[parameters\] srv__tool: invalid input: q/);
    expect(calls).toEqual(['tool.v2:{"q":"ok"}', 'tool.v2:{"q":"bad"}']);
  });

  it('keeps a schema our validator cannot compile, and lets the server validate', async () => {
    const schema = { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } };
    const definition = createMcpToolDefinition(info(schema), async () => ({ content: [] }));
    expect(definition.inputJsonSchema).toEqual(schema);
    expect((await definition.validate({ a: 1 })).success).toBe(true);
  });
});
