import { defineTool } from '@aibuddy/registry';
import type { ToolDefinition } from '@aibuddy/registry';
import type { DirEntry } from '@aibuddy/sandbox';
import { z } from 'zod';
import { toFsToolError } from '../errors.js';
import type { FsRunContext } from '../fs-context.js';
import { formatBytes } from '../format.js';

/**
 * The input schema of `ls`, as the model sees it.
 * `LsInput` is derived from it, so the schema is the one source of the input's shape.
 */
export function lsInputSchema() {
  return z.object({
    path: z.string().optional().describe('Folder, relative to the workspace root (default ".", the root).'),
  });
}

/** Input of `ls` (derived from {@link lsInputSchema}). */
export type LsInput = z.output<ReturnType<typeof lsInputSchema>>;

/** Raw result of `ls`. */
export interface LsOutput {
  /** The folder listed, workspace-relative. */
  path: string;
  /** Entries, sorted by name. */
  entries: DirEntry[];
  /** True when more entries exist than were listed. */
  truncated: boolean;
  /** The entry limit that applied. */
  limit: number;
}

/** The model view of an `ls` result. */
export function lsView(output: LsOutput): string {
  const head = `${output.path === '.' ? '(workspace root)' : `${output.path}/`} — ${output.entries.length}${output.truncated ? '+' : ''} entr${output.entries.length === 1 ? 'y' : 'ies'}`;
  if (output.entries.length === 0) return `${head}\n(empty folder)`;
  const lines = output.entries.map((e) =>
    e.type === 'dir'
      ? `${e.name}/`
      : e.type === 'symlink'
        ? `${e.name}@ (symlink)`
        : e.type === 'other'
          ? `${e.name} (special file)`
          : `${e.name}  ${formatBytes(e.size)}`,
  );
  if (output.truncated) {
    lines.push(`[Listing cut at ${output.limit} entries; more exist. List a subfolder, or use glob with a narrower pattern.]`);
  }
  return `${head}\n${lines.join('\n')}`;
}

/** Creates `ls`. */
export function createLsTool(run: FsRunContext): ToolDefinition<LsInput, LsOutput> {
  return defineTool({
    name: 'ls',
    description: `Lists a folder of the workspace: names, types (folders end with "/") and sizes, at most ${run.limits.lsEntries} entries.`,
    inputSchema: lsInputSchema(),
    execute: async (input, { signal }) => {
      const path = input.path === undefined || input.path.trim() === '' ? '.' : input.path;
      try {
        const result = await run.sandbox.ls(path, { limit: run.limits.lsEntries, signal });
        return { path: result.path, entries: result.entries, truncated: result.truncated, limit: run.limits.lsEntries };
      } catch (error) {
        throw toFsToolError(error, 'ls', path);
      }
    },
    toModelOutput: ({ output }) => lsView(output),
  });
}
