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
  /**
   * The old text matched lines `lines[0]`..`lines[1]` only with indentation ignored, and the new
   * text's indentation cannot be adapted to the file's; `reason` says why. Nothing may be written.
   */
  | { kind: 'unadaptable'; lines: [number, number]; reason: string }
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

/** The result of adapting the new text's indentation: the text to insert, or why it cannot be done. */
export type IndentAdaptation = { ok: true; text: string } | { ok: false; reason: string };

/** Indentation widths a space ↔ tab conversion may use. */
const TAB_WIDTHS = new Set([2, 3, 4, 8]);

/** The one indentation character of the leads, `''` when all are empty, `'mixed'` when both occur. */
function indentChar(leads: readonly string[]): ' ' | '\t' | '' | 'mixed' {
  let found: ' ' | '\t' | '' = '';
  for (const lead of leads) {
    for (const ch of lead) {
      if (found === '') found = ch as ' ' | '\t';
      else if (found !== ch) return 'mixed';
    }
  }
  return found;
}

/** The smallest non-zero lead length: the first indentation level, as a guess of the unit. */
function smallestLevel(leads: readonly string[]): number | undefined {
  const sizes = leads.map((l) => l.length).filter((n) => n > 0);
  return sizes.length === 0 ? undefined : Math.min(...sizes);
}

/**
 * Re-indents the new text the way the file is indented, when the old text matched the file only
 * with its indentation ignored. Indentation is mapped by one rule for the whole block,
 * `file depth = a × old depth + b`, fitted on the matched lines: `a` is 1 with the same character,
 * or the tab width (2, 3, 4 or 8) between spaces and tabs; `b` is the block's base depth in the
 * file. The new text's lines (whose indentation is read like the old text's) are mapped by the
 * same rule. A flush-left old text, whose indentation says nothing, takes its character from the
 * new text or else the file.
 *
 * When no such rule fits, or a new line would land left of the block's base (a silent de-indent),
 * it says why instead (`ok: false`): the caller refuses the edit. One exception: an old text written
 * entirely flush-left against lines of different depths, with a new text that is flush-left too and
 * has as many lines, takes the file's indentation line by line.
 *
 * Compare Aider's "flexible search and replace" (relative indentation) and opencode's
 * indentation-flexible replacer; this is a different, deterministic rule.
 */
export function adaptIndentation(oldLines: string[], fileLines: string[], newText: string, fileUnit?: number): IndentAdaptation {
  const pairs: Array<{ old: string; file: string; line: number }> = [];
  for (let i = 0; i < oldLines.length; i++) {
    const o = oldLines[i]!;
    const f = fileLines[i] ?? '';
    if (o.trim() === '' || f.trim() === '') continue;
    pairs.push({ old: leading(o), file: leading(f), line: i + 1 });
  }
  if (pairs.every((p) => p.old === p.file)) return { ok: true, text: newText };
  const newLines = newText.split('\n');
  const newLeads = newLines.filter((l) => l.trim() !== '').map(leading);
  const oldLeads = pairs.map((p) => p.old);
  const fileLeads = pairs.map((p) => p.file);

  const fileChar = indentChar(fileLeads);
  const oldOwn = indentChar(oldLeads);
  const newOwn = indentChar(newLeads);
  if (fileChar === 'mixed')
    return { ok: false, reason: 'the matched lines of the file mix tabs and spaces in their indentation' };
  if (oldOwn === 'mixed' || newOwn === 'mixed') {
    return { ok: false, reason: `${oldOwn === 'mixed' ? 'old_text' : 'new_text'} mixes tabs and spaces in its indentation` };
  }
  if (oldOwn !== '' && newOwn !== '' && oldOwn !== newOwn) {
    return { ok: false, reason: 'old_text and new_text indent with different characters (one with tabs, the other with spaces)' };
  }
  const oldChar = oldOwn || newOwn || fileChar;
  const target = fileChar || oldChar;

  // Flush-left old text against lines of different depths: only a same-shape flush-left new text can be placed.
  const oldDepths = new Set(pairs.map((p) => p.old.length));
  const fileDepths = new Set(pairs.map((p) => p.file.length));
  if (oldDepths.size === 1 && oldDepths.has(0) && fileDepths.size > 1) {
    if (newOwn === '' && newLines.length === oldLines.length) {
      return {
        ok: true,
        text: newLines.map((line, i) => (line.trim() === '' ? line : `${leading(fileLines[i] ?? '')}${line}`)).join('\n'),
      };
    }
    return {
      ok: false,
      reason:
        'old_text is written flush-left, but the lines it matched are indented to different depths, so the depth of each new line cannot be known',
    };
  }

  // a: file columns per old column.
  let a: number;
  if (oldChar === target) a = 1;
  else {
    const distinct = pairs.find((p) => p.old.length !== pairs[0]!.old.length);
    let width: number;
    if (distinct) {
      const p0 = pairs[0]!;
      const slope = (distinct.file.length - p0.file.length) / (distinct.old.length - p0.old.length);
      width = oldChar === ' ' ? 1 / slope : slope;
    } else if (pairs[0]!.old.length > 0 && pairs[0]!.file.length > 0) {
      // One depth only: it maps onto the file's depth as a whole (4 spaces ↔ 1 tab is width 4).
      const p0 = pairs[0]!;
      width = oldChar === ' ' ? p0.old.length / p0.file.length : p0.file.length / p0.old.length;
    } else {
      // A flush-left old text says nothing about width: take the first level of the spaces side.
      width = (oldChar === ' ' ? smallestLevel([...oldLeads, ...newLeads]) : (fileUnit ?? smallestLevel(fileLeads))) ?? 4;
    }
    if (!TAB_WIDTHS.has(width)) {
      return { ok: false, reason: 'no single tab width converts the indentation of old_text into the indentation the file has' };
    }
    a = oldChar === ' ' ? 1 / width : width;
  }
  const b = pairs[0]!.file.length - a * pairs[0]!.old.length;
  for (const p of pairs) {
    if (Math.abs(p.file.length - (a * p.old.length + b)) > 1e-9) {
      return {
        ok: false,
        reason: `the indentation of old_text does not map onto the file's by one consistent rule (line ${p.line} of old_text has ${JSON.stringify(p.old)}, the file has ${JSON.stringify(p.file)})`,
      };
    }
  }
  const out: string[] = [];
  for (const [i, line] of newLines.entries()) {
    if (line.trim() === '') {
      out.push(line);
      continue;
    }
    const lead = leading(line);
    const depth = a * lead.length + b;
    if (!Number.isInteger(depth) || depth < 0) {
      return {
        ok: false,
        reason: `line ${i + 1} of new_text (indented ${JSON.stringify(lead)}) does not convert to a whole indentation in the file`,
      };
    }
    out.push(`${target.repeat(depth)}${line.slice(lead.length)}`);
  }
  return { ok: true, text: out.join('\n') };
}

/** The file's first indentation level in spaces (smallest non-zero space-only lead), for tab-width guesses. */
function spaceUnit(lines: readonly string[]): number | undefined {
  let unit: number | undefined;
  for (const line of lines) {
    const lead = leading(line);
    if (lead === '' || lead.includes('\t') || line.trim() === '') continue;
    if (unit === undefined || lead.length < unit) unit = lead.length;
  }
  return unit;
}

/**
 * A one-line old text found exactly right after a line's indentation (`return 1` inside
 * `        return 1`), replaced by several lines whose later lines are not indented like that line:
 * the model wrote the block flush-left, so its later lines would land flush-left too (a Python
 * method that no longer parses). They are re-indented relative to the line instead. `undefined`
 * when this does not apply (the new text is then used as written).
 */
function indentAfterLead(text: string, start: number, oldText: string, newText: string): IndentAdaptation | undefined {
  if (oldText.includes('\n') || !newText.includes('\n') || /^[ \t]/.test(oldText)) return undefined;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const lead = text.slice(lineStart, start);
  if (lead === '' || !/^[ \t]+$/.test(lead)) return undefined;
  const later = newText
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '');
  if (later.every((l) => l.startsWith(lead))) return undefined; // already written with the file's indentation
  const adapted = adaptIndentation([oldText], [lead + oldText], newText);
  if (!adapted.ok) return adapted;
  const first = adapted.text.split('\n', 1)[0]!;
  // The range starts after the lead, so the first line goes in without it.
  return { ok: true, text: first.startsWith(lead) ? adapted.text.slice(lead.length) : adapted.text };
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
