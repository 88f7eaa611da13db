import { defineTool } from '@aibuddy/registry';
import type { ToolDefinition } from '@aibuddy/registry';
import { z } from 'zod';
import { toFsToolError } from '../errors.js';
import type { FsRunContext } from '../fs-context.js';
import type { FilesystemLimits } from '../limits.js';
import { optionalCount } from './schema-parts.js';

/**
 * The input schema of `glob`, as the model sees it (its bounds come from the run's limits).
 * `GlobInput` is derived from it, so the schema is the one source of the input's shape.
 */
export function globInputSchema(limits: FilesystemLimits) {
  const { globFiles, maxGlobFiles } = limits;
  return z.object({
    pattern: z
      .string()
      .min(1, 'pattern is empty: give a glob such as "**/*.ts".')
      .describe('Glob pattern, relative to path; without "/" it matches names at any depth.'),
    path: z.string().optional().describe('Folder to search in, relative to the workspace root (default the root).'),
    limit: optionalCount(
      1,
      maxGlobFiles,
      `limit is at most ${maxGlobFiles}; narrow the pattern instead.`,
      `Files at most (default ${globFiles}).`,
    ),
  });
}

/** Input of `glob` (derived from {@link globInputSchema}). */
export type GlobInput = z.output<ReturnType<typeof globInputSchema>>;

/** Raw result of `glob`. */
export interface GlobOutput {
  /** The pattern. */
  pattern: string;
  /** The folder searched. */
  path: string;
  /** Matching files, workspace-relative, sorted. */
  files: string[];
  /** True when more files match than were returned. */
  truncated: boolean;
  /** The limit that applied. */
  limit: number;
}

/** The model view of a `glob` result. */
export function globView(output: GlobOutput): string {
  const where = output.path === '.' ? '' : ` under ${output.path}`;
  if (output.files.length === 0) return `No files match ${output.pattern}${where}.`;
  const head = `${output.files.length}${output.truncated ? '+' : ''} file${output.files.length === 1 ? '' : 's'} match ${output.pattern}${where}:`;
  const tail = output.truncated
    ? [`[Cut at ${output.limit} files; more match. Use a narrower pattern or path (or a larger limit) to see the rest.]`]
    : [];
  return [head, ...output.files, ...tail].join('\n');
}

/** Creates `glob`. */
export function createGlobTool(run: FsRunContext): ToolDefinition<GlobInput, GlobOutput> {
  const { globFiles, maxGlobFiles } = run.limits;
  return defineTool({
    name: 'glob',
    description:
      `Finds files by glob pattern (for example "*.ts", "src/**/test-*.js"), sorted by path, at most ${globFiles} per call (limit up to ${maxGlobFiles}). ` +
      'Patterns are relative to path. A pattern without "/" matches file names at any depth ("*.py" finds a.py and src/b.py, as grep\'s glob filter does); ' +
      'one with "/" matches the whole relative path ("src/*.py" only directly in src); start it with "./" to match only directly in path.',
    inputSchema: globInputSchema(run.limits),
    execute: async (input, { signal }) => {
      const path = input.path === undefined || input.path.trim() === '' ? '.' : input.path;
      const limit = input.limit ?? globFiles;
      try {
        const result = await run.sandbox.glob(input.pattern, { path, limit, signal });
        return { pattern: input.pattern, path, files: result.files, truncated: result.truncated, limit };
      } catch (error) {
        throw toFsToolError(error, 'glob', path);
      }
    },
    toModelOutput: ({ output }) => globView(output),
  });
}
