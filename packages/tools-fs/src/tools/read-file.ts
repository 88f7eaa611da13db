import { defineTool, ToolError } from '@aibuddy/registry';
import type { ToolDefinition } from '@aibuddy/registry';
import type { ReadFileResult, TextEncodingGuess } from '@aibuddy/sandbox';
import { z } from 'zod';
import { toFsToolError } from '../errors.js';
import { snapshotOf } from '../fs-context.js';
import type { FsRunContext } from '../fs-context.js';
import type { FilesystemLimits } from '../limits.js';
import { optionalCount } from './schema-parts.js';
import { formatBytes } from '../format.js';
import { numberLines } from '../text.js';

/**
 * The input schema of `read_file`, as the model sees it (its bounds come from the run's limits).
 * `ReadFileInput` is derived from it, so the schema is the one source of the input's shape.
 */
export function readFileInputSchema(limits: FilesystemLimits) {
  const { readLines, maxReadLines } = limits;
  return z.object({
    path: z
      .string()
      .min(1, 'path is empty: give a file path relative to the workspace root.')
      .describe('File, relative to the workspace root.'),
    offset: z
      .number()
      .int()
      .min(1, 'offset is 1-based: the first line is 1.')
      .optional()
      .describe('First line to read, 1-based (default 1).'),
    limit: optionalCount(
      1,
      maxReadLines,
      `limit is at most ${maxReadLines} lines; read further windows with offset.`,
      `Lines to read (default ${readLines}, at most ${maxReadLines}).`,
    ),
  });
}

/** Input of `read_file` (derived from {@link readFileInputSchema}). */
export type ReadFileInput = z.output<ReturnType<typeof readFileInputSchema>>;

/**
 * Raw result of `read_file`: the sandbox's line window (bounded at the source), plus why the tool
 * ended it early when its own character limit cut it shorter.
 */
export interface ReadFileOutput extends ReadFileResult {
  /** Why the window ended early: the line limit or the character limit. */
  cutBy: 'lines' | 'characters' | undefined;
}

const ICONV_NAMES: Partial<Record<TextEncodingGuess, string>> = { 'gbk?': 'GBK', 'latin-1?': 'LATIN1' };

/** Says that a file is not UTF-8, how it is shown, and what that means for editing it. */
export function encodingNote(encoding: TextEncodingGuess): string {
  const iconv = ICONV_NAMES[encoding];
  const shown =
    iconv === undefined
      ? 'in an unknown encoding; shown as UTF-8, with \uFFFD where bytes are not UTF-8'
      : `probably ${encoding === 'gbk?' ? 'GBK (Chinese)' : 'Latin-1 / Windows-1252'}; shown decoded as that (a guess)`;
  return `[Not UTF-8: this file is ${shown}. edit_file can change only its ASCII text; to edit the rest, convert it to UTF-8 first${iconv ? ` (for example: iconv -f ${iconv} -t UTF-8)` : ''}.]`;
}

/** The model view of a `read_file` result: numbered lines and, when cut, how to get more. */
export function readFileView(output: ReadFileOutput): string {
  const count = output.endLine - output.startLine + 1;
  const of = output.totalLines === undefined ? '' : ` of ${output.totalLines}`;
  const ending = output.lineEnding === '\r\n' ? ', CRLF line endings' : '';
  if (output.size === 0) return `${output.path} — empty file (0 bytes)`;
  if (count <= 0) {
    return `${output.path} — no lines from offset ${output.startLine}${of ? `: the file has ${output.totalLines} lines` : ''}. Call read_file with a smaller offset.`;
  }
  const parts = [`${output.path} — lines ${output.startLine}-${output.endLine}${of} (${formatBytes(output.size)}${ending})`];
  parts.push(numberLines(output.content.split('\n'), output.startLine));
  if (output.truncated && output.nextOffset !== undefined && output.stopped === undefined) {
    const reason =
      output.cutBy === 'characters' ? 'the character limit of one read was reached' : 'the line limit of one read was reached';
    parts.push(
      `[Cut: ${reason}; lines from ${output.nextOffset} on are not shown. Call read_file with offset=${output.nextOffset} to continue, or grep for what you need.]`,
    );
  }
  if (output.encoding !== undefined && output.encoding !== 'utf-8') parts.push(encodingNote(output.encoding));
  if (output.stopped !== undefined) {
    parts.push(
      `[Stopped early: ${output.stopped}${output.nextOffset === undefined ? '' : ` Call read_file with offset=${output.nextOffset} to try the rest, or inspect the file with execute.`}]`,
    );
  }
  if (output.longLinesCut.length > 0) {
    const shown = output.longLinesCut.slice(0, 10).join(', ');
    parts.push(
      `[Line${output.longLinesCut.length === 1 ? '' : 's'} ${shown}${output.longLinesCut.length > 10 ? ', …' : ''} too long and cut (marked in place); use execute (for example cut -c or awk) to see ${output.longLinesCut.length === 1 ? 'it' : 'them'} whole.]`,
    );
  }
  return parts.join('\n');
}

/** Creates `read_file`. */
export function createReadFileTool(run: FsRunContext): ToolDefinition<ReadFileInput, ReadFileOutput> {
  const { readLines, maxReadLines, readChars } = run.limits;
  return defineTool({
    name: 'read_file',
    description:
      `Reads a text file of the workspace as numbered lines. Returns at most ${readLines} lines (limit, up to ${maxReadLines}) ` +
      `and ${readChars} characters per call, starting at offset (1-based); when cut, the result says the offset to continue from. ` +
      'Read a file before editing it.',
    inputSchema: readFileInputSchema(run.limits),
    execute: async (input, { signal }) => {
      const offset = input.offset ?? 1;
      const limit = input.limit ?? readLines;
      let read;
      try {
        read = await run.sandbox.readFile(input.path, { offset, limit, signal });
      } catch (error) {
        throw toFsToolError(error, 'read_file', input.path);
      }
      if (read.startLine !== offset) {
        throw new ToolError(`the sandbox returned a window starting at line ${read.startLine}, not ${offset}.`, {
          stage: 'execution',
          toolName: 'read_file',
        });
      }
      run.tracker.record(read.path, snapshotOf(read));
      let content = read.content;
      let endLine = read.endLine;
      let truncated = read.truncated;
      let nextOffset = read.nextOffset;
      let cutBy: ReadFileOutput['cutBy'] = read.truncated ? 'lines' : undefined;
      if (content.length > readChars) {
        // Bound the view at the source: keep whole lines up to the character limit (at least one).
        const lines = content.split('\n');
        let used = 0;
        let kept = 0;
        while (kept < lines.length && (kept === 0 || used + lines[kept]!.length + 1 <= readChars)) {
          used += lines[kept]!.length + 1;
          kept += 1;
        }
        content = lines.slice(0, kept).join('\n');
        endLine = offset + kept - 1;
        truncated = true;
        nextOffset = endLine + 1;
        cutBy = 'characters';
      }
      return {
        path: read.path,
        content,
        startLine: read.startLine,
        endLine,
        totalLines: read.totalLines,
        truncated,
        nextOffset,
        cutBy,
        longLinesCut: read.longLinesCut.filter((line) => line <= endLine),
        size: read.size,
        lineEnding: read.lineEnding,
        mtimeMs: read.mtimeMs,
        ...(read.encoding === undefined ? {} : { encoding: read.encoding }),
        ...(read.stopped === undefined ? {} : { stopped: read.stopped }),
      };
    },
    toModelOutput: ({ output }) => readFileView(output),
  });
}
