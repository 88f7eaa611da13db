import { describe, expect, it } from 'vitest';
import { adaptIndentation, matchEdit, similarity } from './tolerant-match.js';

describe('matchEdit', () => {
  it('prefers an exact match and reports no tolerance', () => {
    const outcome = matchEdit('a\n  b\nc\n', '  b', '  B', false);
    expect(outcome).toEqual({ kind: 'matched', ranges: [{ start: 2, end: 5 }], tolerated: [], newText: '  B' });
  });

  it('keeps the newline after a whole-line tolerant match when old_text ends with one', () => {
    const text = 'x\n\tif a:\n\t\tgo()\ny\n';
    const outcome = matchEdit(text, '    if a:\n        go()\n', '    if b:\n        go()\n', false);
    expect(outcome.kind).toBe('matched');
    if (outcome.kind !== 'matched') return;
    const range = outcome.ranges[0]!;
    expect(text.slice(range.start, range.end)).toBe('\tif a:\n\t\tgo()\n');
    expect(outcome.newText).toBe('\tif b:\n\t\tgo()\n');
  });

  it('does not match blank-only old text tolerantly', () => {
    expect(matchEdit('a\n\n\nb', '  \n ', 'x', false).kind).toBe('none');
  });
});

describe('adaptIndentation', () => {
  it('converts spaces to tabs with the width the pairs agree on', () => {
    expect(adaptIndentation(['  a', '    b'], ['\ta', '\t\tb'], '  x\n      y')).toBe('\tx\n\t\t\ty');
  });

  it('returns undefined when no single rule explains the difference', () => {
    expect(adaptIndentation(['  a', '    b'], ['\ta', '\t\t\tb'], 'x')).toBeUndefined();
    expect(adaptIndentation(['  a', ' b'], ['    a', '  b'], 'x')).toBeUndefined();
  });

  it('shifts by a constant depth', () => {
    expect(adaptIndentation(['a', '  b'], ['    a', '      b'], 'a\n  c\n\nd')).toBe('    a\n      c\n\n    d');
  });
});

describe('similarity', () => {
  it('ranks near-misses above unrelated lines', () => {
    expect(similarity('export function total(items)', 'export function totals(items)')).toBeGreaterThan(0.8);
    expect(similarity('export function total(items)', 'import x from "y"')).toBeLessThan(0.3);
  });
});
