import { defineTool } from '@aibuddy/registry';
import type { ToolDefinition } from '@aibuddy/registry';
import type { GrepMatch } from '@aibuddy/sandbox';
import { z } from 'zod';
import { toFsToolError } from '../errors.js';
import type { FsRunContext } from '../fs-context.js';
import type { FilesystemLimits } from '../limits.js';
import { optionalCount } from './schema-parts.js';
import { clip } from '../text.js';

/** How `grep` reports. */
export type GrepOutputMode = 'content' | 'files_with_matches' | 'count';

/**
 * The input schema of `grep`, as the model sees it (its bounds come from the run's limits).
 * `GrepInput` is derived from it, so the schema is the one source of the input's shape.
 */
export function grepInputSchema(limits: FilesystemLimits) {
  const { grepResults, maxGrepResults, maxGrepContext } = limits;
  return z.object({
    pattern: z.string().min(1, 'pattern is empty: give a regular expression.').describe('Regular expression to search for.'),
    path: z.string().optional().describe('File or folder to search, relative to the workspace root (default the root).'),
    glob: z
      .string()
      .optional()
      .describe(
        'Only search files matching this glob, relative to path: without "/" it matches names at any depth ("*.ts"), with "/" the whole relative path ("src/**/*.py"); a leading "!" excludes.',
      ),
    output_mode: z
      .enum(['content', 'files_with_matches', 'count'])
      .optional()
      .describe('content (default), files_with_matches, or count.'),
    context: optionalCount(
      0,
      maxGrepContext,
      `context is at most ${maxGrepContext} lines.`,
      'Lines of context before and after each match (content mode).',
    ),
    ignore_case: z.boolean().optional().describe('Case-insensitive search.'),
    limit: optionalCount(
      1,
      maxGrepResults,
      `limit is at most ${maxGrepResults}; narrow the search instead.`,
      `Matches (content) or files (other modes) at most (default ${grepResults}).`,
    ),
  });
}

/** Input of `grep` (derived from {@link grepInputSchema}). */
export type GrepInput = z.output<ReturnType<typeof grepInputSchema>>;

/** Raw result of `grep`. */
export interface GrepOutput {
  /** The pattern. */
  pattern: string;
  /** Where it searched. */
  path: string;
  /** The glob filter, if any. */
  glob: string | undefined;
  /** The output mode. */
  mode: GrepOutputMode;
  /** Matches (content mode). */
  matches: GrepMatch[];
  /** Files with matches and their counts (file and count modes), in path order. */
  files: Array<{ path: string; count: number }>;
  /** True when more results exist than were returned (counts are then lower bounds). */
  truncated: boolean;
  /** The limit that applied. */
  limit: number;
  /** Which engine ran. */
  engine: 'ripgrep' | 'javascript';
  /** Set when the search stopped at its time bound: what the sandbox said. */
  stopped?: string;
}

/** Builds the model view of a `grep` result within a character budget. */
export function grepView(output: GrepOutput, maxChars: number, lineChars: number): string {
  const where = `${output.path === '.' ? '' : ` in ${output.path}`}${output.glob ? ` (files matching ${output.glob})` : ''}`;
  const narrow = 'Narrow the pattern, path or glob';
  if (output.mode !== 'content') {
    if (output.files.length === 0)
      return `No matches for /${output.pattern}/${where}.${output.stopped ? `\n${stoppedView(output.stopped, narrow)}` : ''}`;
    const total = output.files.reduce((n, f) => n + f.count, 0);
    const head =
      output.mode === 'count'
        ? `${output.truncated ? 'At least ' : ''}${total} matches in ${output.files.length}${output.truncated ? '+' : ''} files for /${output.pattern}/${where}:`
        : `${output.files.length}${output.truncated ? '+' : ''} files match /${output.pattern}/${where}:`;
    const lines = output.files.map((f) => (output.mode === 'count' ? `${f.path}: ${f.count}` : f.path));
    const body = fit(lines, maxChars - head.length);
    const notes: string[] = [];
    if (body.cut > 0) notes.push(`[${body.cut} more files not shown (output limit of ${maxChars} characters). ${narrow}.]`);
    if (output.stopped) notes.push(stoppedView(output.stopped, narrow));
    else if (output.truncated)
      notes.push(
        `[More results exist beyond the limit of ${output.limit}${output.mode === 'count' ? '; counts are lower bounds' : ''}. ${narrow}.]`,
      );
    return [head, ...body.lines, ...notes].join('\n');
  }
  if (output.matches.length === 0)
    return `No matches for /${output.pattern}/${where}.${output.stopped ? `\n${stoppedView(output.stopped, narrow)}` : ''}`;
  const files = new Set(output.matches.map((m) => m.path)).size;
  const head = `${output.matches.length}${output.truncated ? '+' : ''} matching lines in ${files} file${files === 1 ? '' : 's'} for /${output.pattern}/${where}:`;
  const lines: string[] = [];
  let lastPath: string | undefined;
  let lastLine = -1;
  const starts: number[] = []; // index in `lines` where each match's block starts
  for (const match of output.matches) {
    const firstShown = match.before?.[0]?.line ?? match.line;
    if (lastPath !== undefined && (match.path !== lastPath || firstShown > lastLine + 1)) lines.push('--');
    starts.push(lines.length);
    for (const b of match.before ?? [])
      if (match.path !== lastPath || b.line > lastLine) lines.push(`${match.path}-${b.line}-${clip(b.text, lineChars)}`);
    lines.push(`${match.path}:${match.line}:${clip(match.text, lineChars)}`);
    lastLine = match.line;
    for (const a of match.after ?? []) {
      lines.push(`${match.path}-${a.line}-${clip(a.text, lineChars)}`);
      lastLine = a.line;
    }
    lastPath = match.path;
  }
  const body = fit(lines, maxChars - head.length);
  const notes: string[] = [];
  if (body.cut > 0) {
    const shownMatches = starts.filter((s) => s < body.lines.length).length;
    notes.push(
      `[Output cut at ${maxChars} characters after ${shownMatches} of ${output.matches.length} matches. ${narrow}, or use output_mode "files_with_matches".]`,
    );
  }
  if (output.stopped) notes.push(stoppedView(output.stopped, narrow));
  else if (output.truncated)
    notes.push(
      `[More matches exist beyond the limit of ${output.limit}. ${narrow}, or use output_mode "count" to see where they are.]`,
    );
  return [head, ...body.lines, ...notes].join('\n');
}

function stoppedView(stopped: string, narrow: string): string {
  return `[Incomplete: ${stopped}. ${narrow}, or simplify the pattern (nested repetition such as (a+)+ can take very long).]`;
}

function fit(lines: string[], budget: number): { lines: string[]; cut: number } {
  let used = 0;
  let i = 0;
  for (; i < lines.length; i++) {
    if (used + lines[i]!.length + 1 > budget) break;
    used += lines[i]!.length + 1;
  }
  return { lines: lines.slice(0, i), cut: lines.length - i };
}

/** Creates `grep`. */
export function createGrepTool(run: FsRunContext): ToolDefinition<GrepInput, GrepOutput> {
  const { grepResults, grepScan, grepChars, grepLineChars } = run.limits;
  return defineTool({
    name: 'grep',
    description:
      'Searches file contents by regular expression (ripgrep syntax). output_mode "content" (default) shows matching lines as path:line:text ' +
      `(context lines as path-line-text), "files_with_matches" lists files, "count" counts per file. At most ${grepResults} results per call and ${grepChars} characters. ` +
      'Skips hidden files, node_modules and what .gitignore / .ignore files exclude.',
    inputSchema: grepInputSchema(run.limits),
    execute: async (input, { signal }) => {
      const path = input.path === undefined || input.path.trim() === '' ? '.' : input.path;
      const mode = input.output_mode ?? 'content';
      const limit = input.limit ?? grepResults;
      let result;
      try {
        result = await run.sandbox.grep(input.pattern, {
          path,
          ...(input.glob ? { glob: input.glob } : {}),
          limit: mode === 'content' ? limit : grepScan,
          ...(input.ignore_case ? { ignoreCase: true } : {}),
          ...(mode === 'content' && input.context ? { context: input.context } : {}),
          signal,
        });
      } catch (error) {
        throw toFsToolError(error, 'grep', path);
      }
      const counts = new Map<string, number>();
      if (mode !== 'content') for (const m of result.matches) counts.set(m.path, (counts.get(m.path) ?? 0) + 1);
      const files = [...counts].map(([p, count]) => ({ path: p, count }));
      return {
        pattern: input.pattern,
        path,
        glob: input.glob,
        mode,
        matches: mode === 'content' ? result.matches : [],
        files: files.slice(0, limit),
        truncated: result.truncated || files.length > limit,
        limit,
        engine: result.engine,
        ...(result.stopped ? { stopped: result.stopped } : {}),
      };
    },
    toModelOutput: ({ output }) => grepView(output, grepChars, grepLineChars),
  });
}
