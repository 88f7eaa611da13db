import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchema } from 'ai';
import { defineTool } from './define-tool.js';
import { ToolDefinitionError } from './errors.js';

const ok = { description: 'Does a thing.', execute: () => 'done' };

function refusal(fn: () => unknown): ToolDefinitionError {
  try {
    fn();
  } catch (error) {
    expect(ToolDefinitionError.isInstance(error)).toBe(true);
    return error as ToolDefinitionError;
  }
  throw new Error('expected defineTool to throw');
}

describe('defineTool', () => {
  it('accepts a zod object schema and produces its JSON Schema synchronously', () => {
    const tool = defineTool({
      ...ok,
      name: 'read_file',
      inputSchema: z.object({ path: z.string().describe('Where'), limit: z.number().optional() }),
    });
    expect(tool.inputJsonSchema).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string', description: 'Where' } },
      required: ['path'],
    });
    expect(tool.validate({ path: 'a' })).toEqual({ success: true, value: { path: 'a' } });
    const bad = tool.validate({ path: 3 });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.issues[0]?.path).toBe('path');
  });

  it('accepts a plain JSON Schema object and validates against it', () => {
    const tool = defineTool({
      ...ok,
      name: 'mcp-tool_1',
      inputSchema: { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] },
    });
    expect(tool.inputJsonSchema.type).toBe('object');
    expect(tool.validate({ n: 2 }).success).toBe(true);
    expect(tool.validate({ n: 0 }).success).toBe(false);
    expect(tool.validate({}).success).toBe(false);
  });

  it('accepts an AI SDK jsonSchema() whose schema is available synchronously', () => {
    const tool = defineTool({ ...ok, name: 'x', inputSchema: jsonSchema({ type: 'object', properties: {} }) as never });
    expect(tool.inputJsonSchema).toEqual({ type: 'object', properties: {} });
  });

  it('refuses a top level that is not an object, naming the tool', () => {
    const e1 = refusal(() => defineTool({ ...ok, name: 'str', inputSchema: z.string() }));
    expect(e1.toolName).toBe('str');
    expect(e1.message).toMatch(/Tool "str": .*top-level type "object".*"string"/);
    refusal(() => defineTool({ ...ok, name: 'arr', inputSchema: { type: 'array', items: {} } }));
    refusal(() => defineTool({ ...ok, name: 'none', inputSchema: { properties: {} } }));
  });

  it('refuses a schema only available asynchronously', () => {
    const e = refusal(() => defineTool({ ...ok, name: 'later', inputSchema: Promise.resolve({ type: 'object' }) as never }));
    expect(e.message).toMatch(/asynchronously/);
    refusal(() => defineTool({ ...ok, name: 'lazy', inputSchema: (() => ({ type: 'object' })) as never }));
    refusal(() =>
      defineTool({ ...ok, name: 'sdk_async', inputSchema: jsonSchema(Promise.resolve({ type: 'object' as const })) as never }),
    );
  });

  it('refuses a zod schema that has no JSON Schema form', () => {
    refusal(() => defineTool({ ...ok, name: 'fn', inputSchema: z.object({ when: z.date() }) }));
  });

  it('refuses bad names', () => {
    for (const name of ['', 'has space', 'a'.repeat(65), 'dots.not.allowed', 'slash/no']) {
      const e = refusal(() => defineTool({ ...ok, name, inputSchema: z.object({}) }));
      expect(e.message).toMatch(/\^\[a-zA-Z0-9_-\]\{1,64\}\$/);
    }
    expect(defineTool({ ...ok, name: 'a'.repeat(64), inputSchema: z.object({}) }).name).toHaveLength(64);
  });

  it('refuses an empty description', () => {
    for (const description of ['', '   ']) {
      const e = refusal(() => defineTool({ name: 'quiet', description, execute: () => 1, inputSchema: z.object({}) }));
      expect(e.message).toMatch(/description is empty/);
    }
  });

  it('refuses a missing execute', () => {
    refusal(() => defineTool({ name: 'noop', description: 'x', inputSchema: z.object({}) } as never));
  });
});
