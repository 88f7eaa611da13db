// The validator of MCP tool inputs: the same verdicts as Ajv (the oracle here, a dev dependency),
// without generating code per schema, and safe on hostile input.
import { fixtureTool } from '@aibuddy/test-utils/tool-catalog';
import type { JsonSchema } from '@aibuddy/registry';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMcpInputValidator } from './mcp-input-check.js';

afterEach(() => vi.restoreAllMocks());

const AJV_OPTIONS = { strict: false, allErrors: true, validateFormats: false } as const;
const [draft07, draft2020] = [new Ajv(AJV_OPTIONS), new Ajv2020(AJV_OPTIONS)];
const oracle = (schema: JsonSchema) =>
  (typeof schema.$schema === 'string' && /draft-0[4-7]/.test(schema.$schema) ? draft07 : draft2020).compile(schema);

// Schemas of the kinds MCP servers ship, each with inputs that pass and inputs that fail.
const CASES: Array<[string, JsonSchema, unknown[]]> = [
  [
    'required and types',
    { type: 'object', properties: { q: { type: 'string' }, n: { type: 'integer', minimum: 1 } }, required: ['q'] },
    [{ q: 'x' }, { q: 'x', n: 3 }, {}, { q: 1 }, { q: 'x', n: 0 }, { q: 'x', n: 1.5 }],
  ],
  [
    'additionalProperties false',
    { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
    [{ a: 'x' }, { a: 'x', b: 1 }, {}],
  ],
  [
    'enum, const, arrays',
    {
      type: 'object',
      properties: {
        mode: { enum: ['fast', 'slow'] },
        v: { const: 2 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
      },
    },
    [
      { mode: 'fast', v: 2, tags: ['a'] },
      { mode: 'other' },
      { v: 3 },
      { tags: [] },
      { tags: ['a', 'b', 'c', 'd'] },
      { tags: [1] },
    ],
  ],
  [
    'anyOf, oneOf, not',
    {
      type: 'object',
      properties: {
        id: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        one: { oneOf: [{ type: 'number' }, { type: 'integer' }] },
        never: { not: { type: 'string' } },
      },
    },
    [{ id: 'a' }, { id: 2 }, { id: true }, { one: 1.5 }, { one: 2 }, { never: 1 }, { never: 'x' }],
  ],
  [
    'recursive $ref "#"',
    {
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } },
      required: ['name'],
    },
    [
      { name: 'r', children: [{ name: 'a', children: [{ name: 'b' }] }] },
      { name: 'r', children: [{ children: [] }] },
    ],
  ],
  [
    '$defs and nested objects',
    {
      type: 'object',
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } },
      properties: { p: { $ref: '#/$defs/point' }, ps: { type: 'array', items: { $ref: '#/$defs/point' } } },
    },
    [{ p: { x: 1 } }, { p: {} }, { ps: [{ x: 1 }, { y: 2 }] }],
  ],
  [
    'draft-07 definitions',
    {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: { s: { type: 'string', maxLength: 3 } },
      properties: { a: { $ref: '#/definitions/s' } },
      dependencies: { a: ['b'] },
    },
    [{ a: 'abc', b: 1 }, { a: 'abcd', b: 1 }, { a: 'x' }],
  ],
  [
    'if/then, propertyNames',
    {
      type: 'object',
      if: { properties: { kind: { const: 'mail' } } },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, not a thenable
      then: { required: ['to'] },
      propertyNames: { maxLength: 8 },
    },
    [{ kind: 'mail', to: 'a' }, { kind: 'mail' }, { waytoolongname: 1 }],
  ],
  [
    'a property called "format" and string formats',
    {
      type: 'object',
      properties: { format: { type: 'string', enum: ['csv', 'json'] }, when: { type: 'string', format: 'date-time' } },
    },
    [{ format: 'csv' }, { format: 'xml' }, { when: 'yesterday' }, { when: '2026-12-04T10:00:00Z' }],
  ],
];

describe('MCP input validation', () => {
  it('gives the verdicts Ajv gives, on hand-written schemas and on 300 real-shaped catalogue tools', () => {
    for (const [what, schema, inputs] of CASES) {
      const ours = createMcpInputValidator(schema);
      const theirs = oracle(schema);
      for (const input of inputs) expect(ours(input).success, `${what}: ${JSON.stringify(input)}`).toBe(theirs(input));
    }
    for (let k = 0; k < 300; k++) {
      const { name, inputSchema } = fixtureTool(['crm', 'billing', 'devops'][k % 3]!, k);
      const schema = inputSchema as JsonSchema;
      const ours = createMcpInputValidator(schema);
      const theirs = oracle(schema);
      const props = Object.entries((schema.properties ?? {}) as Record<string, { type?: string }>);
      const good = Object.fromEntries(props.map(([p, s]) => [p, s.type === 'array' ? ['x'] : s.type === 'integer' ? 1 : 'x']));
      const wrongType = Object.fromEntries(props.map(([p]) => [p, { nested: true }]));
      for (const input of [good, {}, wrongType, { ...good, unknown: 1 }])
        expect(ours(input).success, `${name}: ${JSON.stringify(input)}`).toBe(theirs(input));
    }
  });

  it('names each problem by its path, once, without the wrappers around it', () => {
    const tree = createMcpInputValidator(CASES[4]![1]);
    expect(tree({ name: 'r', children: [{ children: [] }] })).toEqual({
      success: false,
      issues: [{ path: 'children.0.name', message: 'is required' }],
    });
    const closed = createMcpInputValidator(CASES[1]![1]);
    expect(closed({ a: 'x', b: 1 })).toEqual({ success: false, issues: [{ path: 'b', message: 'is not allowed' }] });
    const typed = createMcpInputValidator(CASES[0]![1]);
    const result = typed({ q: 1, n: 0 });
    expect(result.success).toBe(false);
    expect(!result.success && result.issues.map((i) => i.path)).toEqual(['q', 'n']);
    expect(!result.success && result.issues[0]!.message).toMatch(/"string"/);
  });

  it('generates no code: validating a tool does not construct a Function (Ajv does, 1-2 ms per tool)', () => {
    const spy = vi.spyOn(globalThis, 'Function');
    for (let k = 0; k < 20; k++) {
      const validate = createMcpInputValidator(fixtureTool('crm', k).inputSchema as JsonSchema);
      validate({});
      validate({ nope: 1 });
    }
    expect(spy).not.toHaveBeenCalled();
  });

  it('leaves the schema the model sees as it was written', () => {
    const schema = structuredClone(CASES[5]![1]);
    const validate = createMcpInputValidator(schema);
    validate({ p: {} });
    validate({ p: { x: 1 } });
    expect(schema).toEqual(CASES[5]![1]);
  });

  it('an input nested 20,000 levels deep, or with 200,000 problems, is a parameters issue, not a RangeError', () => {
    const root: Record<string, unknown> = { name: 'r' };
    let node = root;
    for (let i = 0; i < 20_000; i++) {
      const child: Record<string, unknown> = { name: 'x' };
      node.children = [child];
      node = child;
    }
    const result = createMcpInputValidator(CASES[4]![1])(root);
    expect(result).toEqual({ success: false, issues: [{ path: '', message: expect.stringMatching(/nests too deeply/) }] });
    // So is a list of problems too long for the stack: 200,000 wrong items.
    const many = createMcpInputValidator({ type: 'object', properties: { xs: { type: 'array', items: { type: 'string' } } } });
    const wrong = many({ xs: Array.from({ length: 200_000 }, (_, i) => i) });
    expect(wrong).toEqual({ success: false, issues: [{ path: '', message: expect.stringMatching(/too many problems/) }] });
  });

  it("never runs a server's regular expression on the model's input (a backtracking one would hang the host)", () => {
    // '^(a+)+$' takes 2^n steps on 'aaa…a!' in a backtracking engine: compiling it at all is the fault
    // (a test running it would not end). Plain strings are used as input; the spy sees what is built.
    const spy = vi.spyOn(globalThis, 'RegExp');
    const patterned = createMcpInputValidator({
      type: 'object',
      properties: { a: { type: 'string', pattern: '^(a+)+$' }, b: { type: 'string', maxLength: 3 } },
      propertyNames: { pattern: '^(a|b)*$' },
    });
    expect(patterned({ a: 'zzz!', c: 1 })).toEqual({ success: true, value: { a: 'zzz!', c: 1 } });
    expect(patterned({ a: 'zzz!', b: 'toolong' })).toMatchObject({ success: false, issues: [{ path: 'b' }] });
    // patternProperties goes to the server too, and with it what depends on it: a property it would
    // have matched is not refused as additional.
    const keyed = createMcpInputValidator({
      type: 'object',
      properties: { id: { type: 'string' } },
      patternProperties: { '^(x+)+-$': { type: 'string' } },
      additionalProperties: false,
    });
    expect(keyed({ id: 'a', 'xx-': 'v', other: 1 }).success).toBe(true);
    expect(keyed({ id: 1 })).toMatchObject({ success: false, issues: [{ path: 'id' }] });
    const built = spy.mock.calls.map(([source]) => String(source));
    expect(built.filter((source) => ['^(a+)+$', '^(a|b)*$', '^(x+)+-$'].includes(source))).toEqual([]);
  });

  it('leaves uniqueItems to the server: its check compares every pair, and 200,000 items would block the host for minutes', () => {
    // 20,000 distinct items took 1.8 s in the validator (quadratic); this test keeps duplicates, so it
    // shows the keyword is not run without running it long.
    const validate = createMcpInputValidator({
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string' }, uniqueItems: true, maxItems: 5 } },
    });
    expect(validate({ tags: ['a', 'a'] })).toEqual({ success: true, value: { tags: ['a', 'a'] } });
    expect(validate({ tags: ['a', 'b', 'c', 'd', 'e', 'f'] })).toMatchObject({ success: false, issues: [{ path: 'tags' }] });
  });

  it('a schema key "__proto__" is a key like any other, not the prototype of the copy it validates with', () => {
    const schema = JSON.parse('{"type":"object","properties":{"a":{"type":"string"}},"__proto__":{"required":["b"]}}');
    const validate = createMcpInputValidator(schema);
    expect(validate({ a: 'x' })).toEqual({ success: true, value: { a: 'x' } });
    expect(validate({ a: 1 })).toMatchObject({ success: false, issues: [{ path: 'a' }] });
  });

  it('a schema it cannot use leaves validation to the server, from then on', () => {
    const remote = createMcpInputValidator({ type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } });
    expect(remote({ a: 1 })).toEqual({ success: true, value: { a: 1 } });
    // Two subschemas with one $id: unusable once found; later inputs are not half-checked.
    const clash = createMcpInputValidator({
      type: 'object',
      properties: { a: { $id: 'urn:x', type: 'string' }, b: { $id: 'urn:x', type: 'number' } },
    });
    expect(clash({ a: 'x' })).toEqual({ success: true, value: { a: 'x' } });
    expect(clash({ a: 1 })).toEqual({ success: true, value: { a: 1 } });
  });
});
