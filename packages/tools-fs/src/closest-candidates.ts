/**
 * When an edit's old text matches nowhere: the windows of the file that resemble it most, ranked
 * by character-bigram similarity, with the first line that differs, so the error can show them.
 */
import { whitespaceLevel } from './whitespace-levels.js';

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
export function closestCandidates(
  fileLines: string[],
  normalized: readonly string[],
  oldLines: string[],
  count: number,
): Candidate[] {
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
