// Type-level test of `execute`'s input type, checked by the type-check gate
// (`tsc -p packages/tools-shell/tsconfig.json`): the type is derived from the schema, and these
// checks fail the compile if it is restated by hand and drifts, or if the schema changes the shape
// the model may send without the type following.
import type { ToolDefinition } from '@aibuddy/registry';
import type { z } from 'zod';
import type { createExecuteTool, ExecuteInput, executeInputSchema } from './execute-tool.js';

/** Exact type equality (distinguishes `any`, optional and readonly differences). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(_value?: T): void {}

assertType<Equal<ExecuteInput, z.output<ReturnType<typeof executeInputSchema>>>>();
assertType<Equal<ReturnType<typeof createExecuteTool> extends ToolDefinition<infer I, infer _O> ? I : never, ExecuteInput>>();
assertType<Equal<ExecuteInput, { command: string; timeout?: number | undefined; cwd?: string | undefined }>>();
