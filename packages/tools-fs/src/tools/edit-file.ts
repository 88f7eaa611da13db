import { defineTool, ToolError } from '@aibuddy/registry';
import type { ToolDefinition } from '@aibuddy/registry';
import type { ReadFileResult } from '@aibuddy/sandbox';
import { occurrences, SandboxTooLargeError } from '@aibuddy/sandbox';
import { z } from 'zod';
import { toFsToolError } from '../errors.js';
import { snapshotOf, WHOLE_FILE_LINES } from '../fs-context.js';
import type { FsRunContext } from '../fs-context.js';
import { formatBytes, shortHash } from '../format.js';
import { staleReason } from '../read-tracker.js';
import { runPathImpact } from '../sensitive-paths.js';
import { clip, fullTextOf, lineAt, normalizeLineEndings, numberLines, sha256, withLineEnding } from '../text.js';
import { matchEdit } from '../tolerant-match.js';
import type { Candidate, MatchRange } from '../tolerant-match.js';
import { rereadWhole as rereadFile } from '../verify.js';

/**
 * The input schema of `edit_file`, as the model sees it.
 * `EditFileInput` is derived from it, so the schema is the one source of the input's shape.
 */
export function editFileInputSchema() {
  return z.object({
    path: z
      .string()
      .min(1, 'path is empty: give a file path relative to the workspace root.')
      .describe('File, relative to the workspace root.'),
    old_text: z
      .string()
      .min(1, 'old_text is empty: give the exact text to replace (use write_file to create a file).')
      .describe('The text to replace, copied exactly from the file.'),
    new_text: z.string().describe('The replacement text.'),
    replace_all: z.boolean().optional().describe('Replace every occurrence of old_text (default false: it must be unique).'),
  });
}

/** Input of `edit_file` (derived from {@link editFileInputSchema}). */
export type EditFileInput = z.output<ReturnType<typeof editFileInputSchema>>;

/** Raw result of `edit_file`, verified by reading the file back. */
export interface EditFileOutput {
  /** File, workspace-relative. */
  path: string;
  /** Occurrences replaced. */
  replacements: number;
  /** `exact`, or `tolerant` when whitespace, line endings or Unicode spaces had to be ignored to find the text. */
  match: 'exact' | 'tolerant';
  /** What was tolerated (empty for exact matches). */
  tolerated: string[];
  /** 1-based first line of each replacement in the new file. */
  lines: number[];
  /** Size after the edit (bytes). */
  size: number;
  /** Lines after the edit. */
  lineCount: number;
  /** SHA-256 of the file's bytes after the edit (of its text with `\n` endings when the file mixes line endings). */
  sha256: string;
  /** The edited region(s) with line numbers and a little context, as now on disk. */
  region: string;
  /** Always true: a failed check is a `verification` error instead. */
  verified: true;
}

/** The model view of an `edit_file` result. */
export function editFileView(output: EditFileOutput): string {
  const where =
    output.lines.length === 1
      ? `line ${output.lines[0]}`
      : `lines ${output.lines.slice(0, 20).join(', ')}${output.lines.length > 20 ? ', …' : ''}`;
  const tolerance = output.match === 'tolerant' ? ` Tolerant match: ${output.tolerated.join('; ')}.` : '';
  return [
    `Edited ${output.path}: ${output.replacements} replacement${output.replacements === 1 ? '' : 's'} at ${where}.${tolerance}`,
    `Now ${formatBytes(output.size)} (${output.size} bytes), ${output.lineCount} lines, sha256 ${shortHash(output.sha256)}; verified by reading it back.`,
    output.region,
  ].join('\n');
}

function formatCandidates(candidates: Candidate[]): string {
  if (candidates.length === 0) return 'No similar lines were found in the file.';
  return [
    'Closest candidates in the file:',
    ...candidates.map((c) => {
      const lines = c.lines.slice(0, 12).map((l) => clip(l, 300));
      const diff = c.firstDifference
        ? `\n  first difference at line ${c.firstDifference.line}: old_text has ${c.firstDifference.expected}, the file has ${c.firstDifference.actual}`
        : '';
      return `lines ${c.startLine}-${c.startLine + c.lines.length - 1} (${Math.round(c.score * 100)}% similar):\n${numberLines(lines, c.startLine)}${c.lines.length > 12 ? '\n  …' : ''}${diff}`;
    }),
  ].join('\n');
}

function splice(text: string, ranges: MatchRange[], replacement: string): { text: string; starts: number[] } {
  let out = '';
  let last = 0;
  const starts: number[] = [];
  for (const range of ranges) {
    out += text.slice(last, range.start);
    starts.push(out.length);
    out += replacement;
    last = range.end;
  }
  return { text: out + text.slice(last), starts };
}

/** Shows the edited regions of the new text, numbered, with context, within a line budget. */
function regionView(newText: string, starts: number[], replacementLength: number, context: number, budget: number): string {
  const lines = newText.split('\n');
  if (newText.endsWith('\n')) lines.pop();
  const spans = starts.map((start) => {
    const first = lineAt(newText, start);
    const last = lineAt(newText, Math.max(start, start + replacementLength - 1));
    return [Math.max(1, first - context), Math.min(lines.length, last + context)] as const;
  });
  const merged: Array<[number, number]> = [];
  for (const [a, b] of spans) {
    const prev = merged.at(-1);
    if (prev && a <= prev[1] + 1) prev[1] = Math.max(prev[1], b);
    else merged.push([a, b]);
  }
  const out: string[] = [];
  let used = 0;
  for (const [i, [a, b]] of merged.entries()) {
    if (used >= budget) {
      out.push(
        `[${merged.length - i} more edited region${merged.length - i === 1 ? '' : 's'} not shown; read_file to see them.]`,
      );
      break;
    }
    const end = Math.min(b, a + (budget - used) - 1);
    if (out.length > 0) out.push('   ...');
    out.push(
      numberLines(
        lines.slice(a - 1, end).map((l) => clip(l, 500)),
        a,
      ),
    );
    if (end < b) out.push(`[region continues to line ${b}; read_file with offset=${end + 1} to see the rest.]`);
    used += end - a + 1;
  }
  return out.join('\n');
}

/** Creates `edit_file`. */
export function createEditFileTool(run: FsRunContext): ToolDefinition<EditFileInput, EditFileOutput> {
  const toolName = 'edit_file';
  return defineTool({
    name: toolName,
    description:
      'Replaces text in a file: old_text must occur exactly once (or set replace_all). Copy old_text from read_file output without the line-number prefix. ' +
      'If it is not found exactly, a match that differs only in whitespace, line endings or Unicode spaces is used when it is unique. ' +
      'Refuses when the file changed on disk since you read it. Returns the edited region with line numbers, and size, line count and SHA-256 verified by reading back.',
    inputSchema: editFileInputSchema(),
    impact: (input: EditFileInput) => runPathImpact(run, input.path, 'Editing'),
    execute: (input: EditFileInput, { signal }) =>
      run.lock.run(input.path, async () => {
        const replaceAll = input.replace_all === true;
        if (input.old_text === input.new_text) {
          throw new ToolError('old_text and new_text are the same; nothing would change.', {
            stage: 'parameters',
            toolName,
            hint: 'Give the changed text as new_text.',
          });
        }
        let read: ReadFileResult;
        try {
          // maxBytes: the sandbox refuses a file over the limit from its size, before reading a byte.
          read = await run.sandbox.readFile(input.path, { limit: WHOLE_FILE_LINES, maxBytes: run.limits.editBytes, signal });
        } catch (error) {
          if (SandboxTooLargeError.isInstance(error)) {
            throw new ToolError(
              `${input.path} is over the ${formatBytes(run.limits.editBytes)} limit of edit_file; nothing was read or changed.`,
              {
                stage: 'parameters',
                toolName,
                cause: error,
                hint: 'Edit large files with execute (for example sed -i or a short script), or split the file.',
              },
            );
          }
          throw toFsToolError(error, toolName, input.path);
        }
        if (read.size > run.limits.editBytes) {
          // A sandbox that does not honour maxBytes: still refuse, though it has read the file.
          throw new ToolError(
            `${input.path} is over the ${formatBytes(run.limits.editBytes)} limit of edit_file; nothing was changed.`,
            {
              stage: 'parameters',
              toolName,
              hint: 'Edit large files with execute (for example sed -i or a short script), or split the file.',
            },
          );
        }
        const path = read.path;
        const now = snapshotOf(read);
        const seen = run.tracker.get(path);
        const stale = seen ? staleReason(seen, now) : undefined;
        if (stale) {
          throw new ToolError(`${path} changed on disk since you last read it (${stale}); the edit was not applied.`, {
            stage: 'parameters',
            toolName,
            hint: 'Read it again with read_file and redo the edit against the current text.',
            details: { before: seen, now },
          });
        }
        const full = fullTextOf(read);
        const oldText = normalizeLineEndings(input.old_text);
        const newText = normalizeLineEndings(input.new_text);

        let expected: string | undefined;
        let starts: number[] = [];
        let replacementLength = newText.length;
        let tolerated: string[] = [];
        let replacements: number;

        if (!full.exact) {
          // Mixed line endings or over-long lines: the text we read is not byte-exact, so no tolerant
          // matching; the sandbox matches the exact text itself.
          let result;
          try {
            result = await run.sandbox.editFile(
              path,
              { oldText: input.old_text, newText: input.new_text, replaceAll },
              { signal },
            );
          } catch (error) {
            throw toFsToolError(error, toolName, path);
          }
          replacements = result.replacements;
          const reread = await rereadWhole(run, path, signal);
          if (reread.size !== result.size) {
            throw verificationError(
              path,
              `the sandbox reported ${result.size} bytes after the edit but ${reread.size} bytes were read back`,
            );
          }
          run.tracker.record(path, snapshotOf(reread));
          const lines = reread.content.split('\n');
          const shown = result.lines.slice(0, 5).map((line) => {
            const a = Math.max(1, line - run.limits.editContextLines);
            const b = Math.min(lines.length, line + newText.split('\n').length - 1 + run.limits.editContextLines);
            return numberLines(lines.slice(a - 1, b), a);
          });
          return {
            path,
            replacements,
            match: 'exact' as const,
            tolerated: [],
            lines: result.lines,
            size: reread.size,
            lineCount: reread.totalLines ?? lines.length,
            sha256: sha256(reread.content),
            region: shown.join('\n   ...\n'),
            verified: true as const,
          };
        }

        const outcome = matchEdit(full.text, oldText, newText, replaceAll);
        if (outcome.kind === 'ambiguous') {
          const lines = outcome.lines.slice(0, 10).join(', ') + (outcome.lines.length > 10 ? ', …' : '');
          throw new ToolError(
            `old_text occurs ${outcome.lines.length} times in ${path}${outcome.tolerant ? ' when whitespace differences are ignored' : ''} (at lines ${lines}); the edit was not applied.`,
            {
              stage: 'parameters',
              toolName,
              hint: outcome.tolerant
                ? 'Copy old_text exactly from read_file output, with enough surrounding lines to make it unique.'
                : 'Include more surrounding lines in old_text so it is unique, or set replace_all to true to change every occurrence.',
              details: { lines: outcome.lines },
            },
          );
        }
        if (outcome.kind === 'unadaptable') {
          throw new ToolError(
            `old_text matches lines ${outcome.lines[0]}-${outcome.lines[1]} of ${path} only when indentation is ignored, and new_text cannot be re-indented to fit: ${outcome.reason}. The edit was not applied.`,
            {
              stage: 'parameters',
              toolName,
              hint: 'Copy old_text from read_file output with its exact indentation, and indent new_text the way the file is indented.',
              details: { lines: outcome.lines },
            },
          );
        }
        if (outcome.kind === 'none') {
          throw new ToolError(
            `old_text was not found in ${path} (not even ignoring whitespace, line endings and Unicode spaces); the edit was not applied.\n${formatCandidates(outcome.candidates)}`,
            {
              stage: 'parameters',
              toolName,
              hint: 'Read the file again and copy old_text exactly from it (without the line-number prefix).',
              details: { candidates: outcome.candidates },
            },
          );
        }
        tolerated = [...outcome.tolerated];
        if (input.old_text !== oldText && full.lineEnding === '\n')
          tolerated.push('CRLF line endings in old_text matched LF in the file');
        replacementLength = outcome.newText.length;
        const spliced = splice(full.text, outcome.ranges, outcome.newText);
        expected = spliced.text;
        starts = spliced.starts;
        replacements = outcome.ranges.length;

        try {
          if (outcome.tolerated.length === 0) {
            await run.sandbox.editFile(path, { oldText, newText, replaceAll }, { signal });
          } else {
            const range = outcome.ranges[0]!;
            const region = full.text.slice(range.start, range.end);
            if (occurrences(full.text, region).length === 1) {
              await run.sandbox.editFile(path, { oldText: region, newText: outcome.newText }, { signal });
            } else {
              // The region's exact text also occurs elsewhere: write the whole new text instead,
              // re-checking first that nothing changed since we read it.
              const again = await run.sandbox.readFile(path, { limit: 1, signal });
              if (staleReason({ mtimeMs: now.mtimeMs, size: now.size }, snapshotOf(again))) {
                throw new ToolError(`${path} changed on disk while the edit was being prepared; the edit was not applied.`, {
                  stage: 'execution',
                  toolName,
                  hint: 'Read it again with read_file and redo the edit.',
                });
              }
              await run.sandbox.writeFile(path, withLineEnding(expected, full.lineEnding), { signal });
            }
          }
        } catch (error) {
          throw toFsToolError(error, toolName, path);
        }

        const reread = await rereadWhole(run, path, signal);
        const after = fullTextOf(reread);
        if (after.text !== expected) {
          throw verificationError(
            path,
            `the file read back (sha256 ${shortHash(sha256(after.text))}, ${reread.size} bytes) is not the expected result (sha256 ${shortHash(sha256(expected))})`,
          );
        }
        run.tracker.record(path, snapshotOf(reread));
        return {
          path,
          replacements,
          match: tolerated.length === 0 ? ('exact' as const) : ('tolerant' as const),
          tolerated,
          lines: starts.map((start) => lineAt(expected!, start)),
          size: reread.size,
          lineCount: reread.totalLines ?? expected.split('\n').length,
          sha256: sha256(withLineEnding(after.text, after.lineEnding)),
          region: regionView(expected, starts, replacementLength, run.limits.editContextLines, run.limits.editRegionLines),
          verified: true as const,
        };
      }),
    toModelOutput: ({ output }) => editFileView(output),
  });
}

function verificationError(path: string, what: string): ToolError {
  return new ToolError(`edit of ${path} could not be verified: ${what}.`, {
    stage: 'verification',
    toolName: 'edit_file',
    sideEffectsPossible: true,
    hint: 'Something else may be changing this file; read it with read_file before doing anything else.',
  });
}

function rereadWhole(run: FsRunContext, path: string, signal: AbortSignal): Promise<ReadFileResult> {
  return rereadFile(run.sandbox, path, 'edit_file', signal);
}
