// Type-level tests of the tools' input types, checked by the type-check gate
// (`tsc -p packages/tools-fs/tsconfig.json`). Each input type is derived from its schema; these
// checks fail the compile if a type is restated by hand and drifts from the schema, or if the
// schema changes the shape the model may send without the type following.
import type { ToolDefinition } from '@aibuddy/registry';
import type { z } from 'zod';
import type { EditFileInput, editFileInputSchema } from './tools/edit-file.js';
import type { GlobInput, globInputSchema } from './tools/glob.js';
import type { GrepInput, grepInputSchema } from './tools/grep.js';
import type { LsInput, lsInputSchema } from './tools/ls.js';
import type { ReadFileInput, readFileInputSchema } from './tools/read-file.js';
import type { WriteFileInput, writeFileInputSchema } from './tools/write-file.js';
import type { createEditFileTool } from './tools/edit-file.js';
import type { createGlobTool } from './tools/glob.js';
import type { createGrepTool } from './tools/grep.js';
import type { createLsTool } from './tools/ls.js';
import type { createReadFileTool } from './tools/read-file.js';
import type { createWriteFileTool } from './tools/write-file.js';

/** Exact type equality (distinguishes `any`, optional and readonly differences). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(_value?: T): void {}

type SchemaOf<F extends (...args: never[]) => z.ZodType> = z.output<ReturnType<F>>;
type InputOf<F extends (...args: never[]) => unknown> = ReturnType<F> extends ToolDefinition<infer I, infer _O> ? I : never;

// The exported type is the schema's output ...
assertType<Equal<LsInput, SchemaOf<typeof lsInputSchema>>>();
assertType<Equal<ReadFileInput, SchemaOf<typeof readFileInputSchema>>>();
assertType<Equal<WriteFileInput, SchemaOf<typeof writeFileInputSchema>>>();
assertType<Equal<EditFileInput, SchemaOf<typeof editFileInputSchema>>>();
assertType<Equal<GlobInput, SchemaOf<typeof globInputSchema>>>();
assertType<Equal<GrepInput, SchemaOf<typeof grepInputSchema>>>();

// ... and what each tool's execute receives.
assertType<Equal<InputOf<typeof createLsTool>, LsInput>>();
assertType<Equal<InputOf<typeof createReadFileTool>, ReadFileInput>>();
assertType<Equal<InputOf<typeof createWriteFileTool>, WriteFileInput>>();
assertType<Equal<InputOf<typeof createEditFileTool>, EditFileInput>>();
assertType<Equal<InputOf<typeof createGlobTool>, GlobInput>>();
assertType<Equal<InputOf<typeof createGrepTool>, GrepInput>>();

// The public shapes teams code against (the names and optionality the model sees).
assertType<Equal<LsInput, { path?: string | undefined }>>();
assertType<Equal<ReadFileInput, { path: string; offset?: number | undefined; limit?: number | undefined }>>();
assertType<Equal<WriteFileInput, { path: string; content: string }>>();
assertType<Equal<EditFileInput, { path: string; old_text: string; new_text: string; replace_all?: boolean | undefined }>>();
assertType<Equal<GlobInput, { pattern: string; path?: string | undefined; limit?: number | undefined }>>();
assertType<
  Equal<
    GrepInput,
    {
      pattern: string;
      path?: string | undefined;
      glob?: string | undefined;
      output_mode?: 'content' | 'files_with_matches' | 'count' | undefined;
      context?: number | undefined;
      ignore_case?: boolean | undefined;
      limit?: number | undefined;
    }
  >
>();
