// Type-level tests of `defineTool`, checked by the type-check gate (`tsc -p packages/registry/tsconfig.json`).
// Each `@ts-expect-error` fails the compile if the error it expects disappears, so a reopened hole is caught.
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import type { SyncToolDefinition } from './tool-definition.js';

const pathSchema = z.object({ path: z.string(), limit: z.number().optional() });

/** Exact type equality (distinguishes `any`, optional and readonly differences). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(_value?: T): void {}

// The input type is the schema's, with no annotation on execute.
const inferred = defineTool({
  name: 'read_it',
  description: 'Reads a path.',
  inputSchema: pathSchema,
  execute: (input) => input.path.length + (input.limit ?? 0),
});
assertType<Equal<typeof inferred, SyncToolDefinition<{ path: string; limit?: number | undefined }, number>>>();

defineTool({
  name: 'wrong_input',
  description: 'The hole: execute declares an input the schema does not produce.',
  inputSchema: pathSchema,
  // @ts-expect-error execute's input must come from the schema, not from the annotation
  execute: (input: { file: number }) => input.file,
});

defineTool({
  name: 'wider_claim',
  description: 'execute claims a required field the schema does not have (bivariance would let this through).',
  inputSchema: pathSchema,
  // @ts-expect-error `extra` is not produced by the schema
  execute: (input: { path: string; extra: string }) => input.extra,
});

defineTool({
  name: 'wrong_impact',
  description: 'The impact hook sees the schema type too.',
  inputSchema: pathSchema,
  execute: () => 1,
  // @ts-expect-error impact's input must come from the schema
  impact: (input: { command: string }) => ({ target: input.command, scope: 'workspace', impact: 'x' }),
});

defineTool({
  name: 'hook_types',
  description: 'Result hooks see the schema input and the execute output.',
  inputSchema: pathSchema,
  execute: (input) => ({ size: input.path.length }),
  toModelOutput: ({ input, output }) => {
    assertType<Equal<typeof input.path, string>>();
    // @ts-expect-error the output has no `missing` field
    return `${output.size}${output.missing}`;
  },
});

// A JSON Schema input gives `unknown`: execute must narrow it rather than claim a shape.
defineTool({
  name: 'json_schema',
  description: 'JSON Schema input.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  execute: (input) => {
    // @ts-expect-error input is unknown until checked
    return input.path;
  },
});

// A JSON Schema carries no type: execute may declare the shape the schema validates (runtime checks it).
const declared = defineTool({
  name: 'json_declared',
  description: 'JSON Schema input with a declared type.',
  inputSchema: { type: 'object', properties: { kind: { type: 'string' } }, required: ['kind'] },
  execute: (input: { kind: string }) => input.kind,
});
assertType<Equal<typeof declared, SyncToolDefinition<{ kind: string }, string>>>();
