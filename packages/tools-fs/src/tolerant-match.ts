/**
 * Finding the text an edit should replace, the way models actually write it: exact first, then
 * tolerant of line endings, Unicode spaces, trailing whitespace and indentation — but a tolerant
 * match is used only when it is unique. When nothing matches, the closest candidate windows are
 * found so the error can show them.
 */
import { occurrences } from '@aibuddy/sandbox';
import { indentAfterLead, adaptIndentation, spaceUnit } from './adapt-indentation.js';
import { closestCandidates } from './closest-candidates.js';
import type { Candidate } from './closest-candidates.js';
import { mapSpaces, SPECIAL, trailingLevel, whitespaceLevel } from './whitespace-levels.js';

export type { Candidate } from './closest-candidates.js';

/** A range of the file's text (with `\n` line endings) to replace. */
export interface MatchRange {
  /** Start offset. */
  start: number;
  /** End offset (exclusive). */
  end: number;
}

/** The outcome of matching. */
export type MatchOutcome =
  | {
      kind: 'matched';
      /** The ranges to replace, in order. */
      ranges: MatchRange[];
      /** What was tolerated (empty for an exact match). */
      tolerated: string[];
      /** The new text to insert, adapted to the file's indentation when that was tolerated. */
      newText: string;
    }
  /** The old text occurs several times (exactly, or tolerantly). */
  | { kind: 'ambiguous'; lines: number[]; tolerant: boolean }
  /**
   * The old text matched lines `lines[0]`..`lines[1]` only with indentation ignored, and the new
   * text's indentation cannot be adapted to the file's; `reason` says why. Nothing may be written.
   */
  | { kind: 'unadaptable'; lines: [number, number]; reason: string }
  /** No match; `candidates` are the closest windows, best first. */
  | { kind: 'none'; candidates: Candidate[] };

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

interface LineIndex {
  lines: string[];
  starts: number[];
}

function indexLines(text: string): LineIndex {
  const lines = text.split('\n');
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  return { lines, starts };
}

function lineMatches(normalized: readonly string[], oldLines: string[], normalize: (line: string) => string): number[] {
  const wanted = oldLines.map(normalize);
  if (wanted.every((l) => l === '')) return [];
  const found: number[] = [];
  for (let i = 0; i + wanted.length <= normalized.length; i++) {
    let ok = true;
    for (let j = 0; j < wanted.length; j++) {
      if (normalized[i + j] !== wanted[j]) {
        ok = false;
        break;
      }
    }
    if (ok) found.push(i);
  }
  return found;
}

/**
 * Finds where `oldText` is in `text` (both use `\n`; the caller normalizes CRLF). Exact first;
 * then, in order, Unicode spaces, trailing whitespace, and any whitespace difference; each
 * tolerant level is used only when it yields exactly one match.
 */
export function matchEdit(text: string, oldText: string, newText: string, replaceAll: boolean): MatchOutcome {
  const exact = occurrences(text, oldText);
  if (exact.length === 1) {
    const range = { start: exact[0]!, end: exact[0]! + oldText.length };
    const indented = indentAfterLead(text, range.start, oldText, newText);
    if (indented === undefined) return { kind: 'matched', ranges: [range], tolerated: [], newText };
    if (!indented.ok) {
      const line = lineOf(text, range.start);
      return { kind: 'unadaptable', lines: [line, line], reason: indented.reason };
    }
    return { kind: 'matched', ranges: [range], tolerated: ['new text re-indented to match the file'], newText: indented.text };
  }
  if (exact.length > 1 && replaceAll) {
    return { kind: 'matched', ranges: exact.map((start) => ({ start, end: start + oldText.length })), tolerated: [], newText };
  }
  if (exact.length > 1) return { kind: 'ambiguous', lines: exact.map((at) => lineOf(text, at)), tolerant: false };

  const spaced = SPECIAL.test(text) || SPECIAL.test(oldText) ? occurrences(mapSpaces(text), mapSpaces(oldText)) : [];
  if (spaced.length === 1) {
    return {
      kind: 'matched',
      ranges: [{ start: spaced[0]!, end: spaced[0]! + oldText.length }],
      tolerated: ['Unicode spaces (for example non-breaking spaces) treated as plain spaces'],
      newText,
    };
  }
  if (spaced.length > 1) return { kind: 'ambiguous', lines: spaced.map((at) => lineOf(text, at)), tolerant: true };

  const file = indexLines(text);
  let oldLines = oldText.split('\n');
  const endsWithNewline = oldLines.length > 1 && oldLines.at(-1) === '';
  if (endsWithNewline) oldLines = oldLines.slice(0, -1);

  const levels: Array<{ normalize: (line: string) => string; tolerated: string }> = [
    { normalize: trailingLevel, tolerated: 'trailing whitespace and Unicode spaces ignored' },
    { normalize: whitespaceLevel, tolerated: 'indentation and whitespace differences ignored' },
  ];
  // Each level normalizes the file's lines once; the last one is reused to rank candidates.
  let normalizedLines: string[] = [];
  for (const level of levels) {
    normalizedLines = file.lines.map(level.normalize);
    const found = lineMatches(normalizedLines, oldLines, level.normalize);
    if (found.length > 1) return { kind: 'ambiguous', lines: found.map((i) => i + 1), tolerant: true };
    if (found.length === 1) {
      const first = found[0]!;
      const last = first + oldLines.length - 1;
      const start = file.starts[first]!;
      let end = file.starts[last]! + file.lines[last]!.length;
      if (endsWithNewline && end < text.length) end += 1;
      const tolerated = [level.tolerated];
      let adapted = newText;
      if (level.normalize === whitespaceLevel) {
        const reindented = adaptIndentation(oldLines, file.lines.slice(first, last + 1), newText, spaceUnit(file.lines));
        if (!reindented.ok) return { kind: 'unadaptable', lines: [first + 1, last + 1], reason: reindented.reason };
        if (reindented.text !== newText) {
          adapted = reindented.text;
          tolerated.push('new text re-indented to match the file');
        }
      }
      return { kind: 'matched', ranges: [{ start, end }], tolerated, newText: adapted };
    }
  }
  return { kind: 'none', candidates: closestCandidates(file.lines, normalizedLines, oldLines, 3) };
}
