import { createHash } from 'node:crypto';
import type { ReadFileResult } from '@aibuddy/sandbox';

/** SHA-256 of a string's UTF-8 bytes, hex. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Line numbers in the `cat -n` style models are used to: right-aligned number, a tab, the line. */
export function numberLines(lines: readonly string[], firstLine: number): string {
  const width = String(firstLine + lines.length - 1).length;
  return lines.map((line, i) => `${String(firstLine + i).padStart(Math.max(width, 6))}\t${line}`).join('\n');
}

/** `\r\n` → `\n`. Lone `\r` is left alone (it is content, not a line ending). */
export function normalizeLineEndings(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

/** The whole text of a file read in one window, with `\n` line endings, as exactly as the read allows. */
export interface FullText {
  /** The text with `\n` line endings, trailing newline included when the file has one. */
  text: string;
  /**
   * True when `text` converted back to the file's line ending has exactly the file's size: the file
   * then uses one line-ending style and no line was cut, so the text is the file.
   */
  exact: boolean;
  /** The file's line ending. */
  lineEnding: '\n' | '\r\n';
}

/** Rebuilds the full text of a file from a window that covers all of it. */
export function fullTextOf(read: ReadFileResult): FullText {
  const ending = read.lineEnding;
  const body = ending === '\n' ? read.content : read.content.replace(/\n/g, ending);
  const bytes = Buffer.byteLength(body, 'utf8');
  // Text decoded from another encoding is never the file's bytes, whatever its length.
  const exactWindow =
    !read.truncated && read.longLinesCut.length === 0 && (read.encoding === undefined || read.encoding === 'utf-8');
  if (exactWindow && bytes === read.size) return { text: read.content, exact: true, lineEnding: ending };
  if (exactWindow && bytes + ending.length === read.size) return { text: `${read.content}\n`, exact: true, lineEnding: ending };
  return { text: read.content, exact: false, lineEnding: ending };
}

/** The bytes of a `\n` text written back with the given line ending. */
export function withLineEnding(text: string, ending: '\n' | '\r\n'): string {
  return ending === '\n' ? text : text.replace(/\n/g, ending);
}

/** 1-based line number of a character offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

/** Number of lines of a text as editors count them (a trailing newline does not start a new line). */
export function countLines(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n += 1;
  return text.endsWith('\n') ? n - 1 : n;
}

/** Cuts a long line for display, saying how much was cut. */
export function clip(line: string, max: number): string {
  return line.length <= max ? line : `${line.slice(0, max)}… [+${line.length - max} characters]`;
}
