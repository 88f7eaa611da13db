/**
 * Finding the text an edit should replace, the way models actually write it: exact first, then
 * tolerant of line endings, Unicode spaces, trailing whitespace and indentation — but a tolerant
 * match is used only when it is unique. When nothing matches, the closest candidate windows are
 * found so the error can show them.
 */

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
  /** No match; `candidates` are the closest windows, best first. */
  | { kind: 'none'; candidates: Candidate[] };

/** A window of the file that resembles the old text. */
export interface Candidate {
  /** 1-based first line. */
  startLine: number;
  /** The window's lines. */
  lines: string[];
  /** Similarity 0..1. */
  score: number;
  /** The first line that differs: what the old text has and what the file has (JSON-escaped to show whitespace). */
  firstDifference?: { line: number; expected: string; actual: string };
}

// Spaces a model (or a copy from a web page) writes interchangeably with U+0020.
const UNICODE_SPACES = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g;
const ZERO_WIDTH = /[\u200b\u200c\u200d\u2060\ufeff]/g;

function mapSpaces(text: string): string {
  // Length-preserving, so offsets found in the mapped text are offsets in the original.
  return text.replace(UNICODE_SPACES, ' ');
}

function occurrences(haystack: string, needle: string): number[] {
  const at: number[] = [];
  if (needle === '') return at;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

const SPECIAL = /[\u00a0\u1680\u2000-\u200d\u202f\u205f\u2060\u3000\ufeff]/;
const unspecial = (line: string) => (SPECIAL.test(line) ? mapSpaces(line).replace(ZERO_WIDTH, '') : line);
const trailingLevel = (line: string) => unspecial(line).replace(/[ \t]+$/, '');
const MULTI_SPACE = /\s{2,}|[^\S ]/;
const whitespaceLevel = (line: string) => {
  const trimmed = unspecial(line).trim();
  // Most lines have single plain spaces only: skip the replace for them.
  return MULTI_SPACE.test(trimmed) ? trimmed.replace(/\s+/g, ' ') : trimmed;
};

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

const leading = (line: string) => /^[ \t]*/.exec(line)![0];

/**
 * Re-indents the new text the way the file is indented, when the old text matched only modulo
 * indentation: tabs ↔ spaces with one consistent width, or one consistent shift in depth.
 * Returns `undefined` when no single rule explains the difference (the new text is then used as given).
 */
export function adaptIndentation(oldLines: string[], fileLines: string[], newText: string): string | undefined {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < oldLines.length; i++) {
    const o = oldLines[i]!;
    const f = fileLines[i] ?? '';
    if (o.trim() === '' || f.trim() === '') continue;
    pairs.push([leading(o), leading(f)]);
  }
  if (pairs.every(([o, f]) => o === f)) return newText;
  const newLines = newText.split('\n');
  const spacesToTabs = pairs.every(([o, f]) => /^ *$/.test(o) && /^\t*$/.test(f));
  const tabsToSpaces = pairs.every(([o, f]) => /^\t*$/.test(o) && /^ *$/.test(f));
  if (spacesToTabs || tabsToSpaces) {
    let width: number | undefined;
    for (const [o, f] of pairs) {
      const [spaces, tabs] = spacesToTabs ? [o.length, f.length] : [f.length, o.length];
      if (tabs === 0 && spaces === 0) continue;
      if (tabs === 0 || spaces % tabs !== 0) return undefined;
      const w = spaces / tabs;
      if (width !== undefined && width !== w) return undefined;
      width = w;
    }
    if (width === undefined) return undefined;
    const w = width;
    return newLines
      .map((line) => {
        const lead = leading(line);
        const rest = line.slice(lead.length);
        if (spacesToTabs) {
          const spaces = lead.replace(/\t/g, ' '.repeat(w)).length;
          return `${'\t'.repeat(Math.floor(spaces / w))}${' '.repeat(spaces % w)}${rest}`;
        }
        return `${lead.replace(/\t/g, ' '.repeat(w))}${rest}`;
      })
      .join('\n');
  }
  // Same indentation characters, shifted by a constant depth.
  const shifts = new Set(pairs.map(([o, f]) => (f.startsWith(o) ? f.slice(o.length) : o.startsWith(f) ? `-${o.length - f.length}` : '?')));
  if (shifts.size !== 1) return undefined;
  const shift = [...shifts][0]!;
  if (shift === '?') return undefined;
  if (shift.startsWith('-')) {
    const cut = Number(shift.slice(1));
    return newLines.map((line) => (leading(line).length >= cut ? line.slice(cut) : line.trimStart())).join('\n');
  }
  return newLines.map((line) => (line.trim() === '' ? line : `${shift}${line}`)).join('\n');
}

/**
 * Finds where `oldText` is in `text` (both use `\n`; the caller normalises CRLF). Exact first;
 * then, in order, Unicode spaces, trailing whitespace, and any whitespace difference; each
 * tolerant level is used only when it yields exactly one match.
 */
export function matchEdit(text: string, oldText: string, newText: string, replaceAll: boolean): MatchOutcome {
  const exact = occurrences(text, oldText);
  if (exact.length === 1 || (exact.length > 1 && replaceAll)) {
    return { kind: 'matched', ranges: exact.map((start) => ({ start, end: start + oldText.length })), tolerated: [], newText };
  }
  if (exact.length > 1) return { kind: 'ambiguous', lines: exact.map((at) => lineOf(text, at)), tolerant: false };

  const spaced = SPECIAL.test(text) || SPECIAL.test(oldText) ? occurrences(mapSpaces(text), mapSpaces(oldText)) : [];
  if (spaced.length === 1) {
    return { kind: 'matched', ranges: [{ start: spaced[0]!, end: spaced[0]! + oldText.length }], tolerated: ['Unicode spaces (for example non-breaking spaces) treated as plain spaces'], newText };
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
  // Each level normalises the file's lines once; the last one is reused to rank candidates.
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
        const reindented = adaptIndentation(oldLines, file.lines.slice(first, last + 1), newText);
        if (reindented === undefined) tolerated.push('new text inserted with its own indentation');
        else if (reindented !== newText) {
          adapted = reindented;
          tolerated.push('new text re-indented to match the file');
        }
      }
      return { kind: 'matched', ranges: [{ start, end }], tolerated, newText: adapted };
    }
  }
  return { kind: 'none', candidates: closestCandidates(file.lines, normalizedLines, oldLines, 3) };
}

function bigrams(text: string): Map<string, number> {
  const grams = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const g = text.slice(i, i + 2);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  return grams;
}

/** Dice coefficient over character bigrams: cheap and good enough to rank near-misses. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const x = bigrams(a);
  const y = bigrams(b);
  let common = 0;
  for (const [g, n] of x) common += Math.min(n, y.get(g) ?? 0);
  return (2 * common) / (a.length - 1 + (b.length - 1));
}

/**
 * `similarity(anchor, line)` for many lines: the anchor's bigrams are counted once, bigrams are
 * numeric keys (no substring allocation) and one scratch map is reused. Ranking a 20,000-line file
 * this way is an order of magnitude faster than calling `similarity` per line.
 */
function createRanker(anchor: string): (line: string) => number {
  const wanted = new Map<number, number>();
  for (let i = 0; i < anchor.length - 1; i++) {
    const key = anchor.charCodeAt(i) * 65536 + anchor.charCodeAt(i + 1);
    wanted.set(key, (wanted.get(key) ?? 0) + 1);
  }
  const used = new Map<number, number>();
  return (line) => {
    if (line === anchor) return 1;
    if (anchor.length < 2 || line.length < 2) return 0;
    used.clear();
    let common = 0;
    for (let i = 0; i < line.length - 1; i++) {
      const key = line.charCodeAt(i) * 65536 + line.charCodeAt(i + 1);
      const available = wanted.get(key);
      if (available === undefined) continue;
      const taken = used.get(key) ?? 0;
      if (taken < available) {
        common += 1;
        used.set(key, taken + 1);
      }
    }
    return (2 * common) / (anchor.length - 1 + (line.length - 1));
  };
}

/** `normalized` is `fileLines` mapped through `whitespaceLevel`. */
function closestCandidates(fileLines: string[], normalized: readonly string[], oldLines: string[], count: number): Candidate[] {
  const wanted = oldLines.map(whitespaceLevel);
  const anchorIndex = wanted.findIndex((l) => l !== '');
  if (anchorIndex === -1) return [];
  const anchor = wanted[anchorIndex]!;
  // Rank every line against the first non-blank old line, then score whole windows for the best few.
  const rankAnchor = createRanker(anchor);
  const ranked = normalized
    .map((line, i) => ({ i, s: rankAnchor(line) }))
    .filter((r) => r.s > 0)
    .sort((a, b) => b.s - a.s)
    .slice(0, 20);
  const windows: Candidate[] = [];
  for (const { i } of ranked) {
    const start = Math.max(0, i - anchorIndex);
    let total = 0;
    let firstDifference: Candidate['firstDifference'];
    for (let j = 0; j < oldLines.length; j++) {
      const actual = fileLines[start + j] ?? '';
      total += similarity(wanted[j]!, normalized[start + j] ?? '') || (wanted[j] === (normalized[start + j] ?? '') ? 1 : 0);
      if (!firstDifference && oldLines[j] !== actual) {
        firstDifference = { line: start + j + 1, expected: JSON.stringify(oldLines[j]), actual: JSON.stringify(actual) };
      }
    }
    const score = total / oldLines.length;
    if (windows.some((w) => w.startLine === start + 1)) continue;
    windows.push({
      startLine: start + 1,
      lines: fileLines.slice(start, start + oldLines.length),
      score,
      ...(firstDifference ? { firstDifference } : {}),
    });
  }
  return windows.sort((a, b) => b.score - a.score).slice(0, count);
}
