import { describe, expect, it } from 'vitest';
import { adaptIndentation } from './adapt-indentation.js';
import { similarity } from './closest-candidates.js';
import { matchEdit } from './tolerant-match.js';

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

const adapt = (oldLines: string[], fileLines: string[], newText: string) => {
  const result = adaptIndentation(oldLines, fileLines, newText);
  return result.ok ? result.text : undefined;
};

describe('adaptIndentation', () => {
  it('converts spaces to tabs with the width the pairs agree on', () => {
    expect(adapt(['  a', '    b'], ['\ta', '\t\tb'], '  x\n      y')).toBe('\tx\n\t\t\ty');
  });

  it('says why when no single rule explains the difference', () => {
    expect(adapt(['  a', '    b'], ['\ta', '\t\t\tb'], 'x')).toBeUndefined();
    expect(adapt(['  a', ' b'], ['    a', '  b'], 'x')).toBeUndefined();
    const why = adaptIndentation(['  a', ' b'], ['    a', '  b'], 'x');
    expect(why).toEqual({
      ok: false,
      reason: expect.stringMatching(/one consistent rule \(line 2 of old_text has " ", the file has " {2}"\)/),
    });
  });

  it('shifts by a constant depth', () => {
    expect(adapt(['a', '  b'], ['    a', '      b'], 'a\n  c\n\nd')).toBe('    a\n      c\n\n    d');
  });

  // Issue 13: the empty indentation of a flush-left old_text matched both the tab and the space
  // rule: flush-left new text in a space-indented file, `Invalid count value: Infinity` with an
  // indented new_text in a tab-indented file, and a silent de-indent with a flush-left one.
  it('a flush-left one-line old_text in a space-indented file keeps the file depth', () => {
    expect(adapt(['return 1'], ['        return 1'], 'return 2')).toBe('        return 2');
    expect(adapt(['return 1'], ['        return 1'], 'if x:\n    return 2')).toBe('        if x:\n            return 2');
  });

  it('a flush-left old_text in a tab-indented file: indented new_text converts, flush-left new_text keeps the depth', () => {
    expect(() => adaptIndentation(['go()'], ['\t\tgo()'], '    go()\n    stop()')).not.toThrow();
    expect(adapt(['go()'], ['\t\tgo()'], '    go()\n    stop()')).toBe('\t\t\tgo()\n\t\t\tstop()');
    expect(adapt(['go()'], ['\t\tgo()'], 'stop()')).toBe('\t\tstop()');
    expect(adapt(['go()'], ['\t\tgo()'], 'stop()\n\tmore()')).toBe('\t\tstop()\n\t\t\tmore()');
  });

  it('refuses, never de-indents, when a new line would land left of the block', () => {
    const result = adaptIndentation(['    return 1'], ['\treturn 1'], '  return 2');
    expect(result.ok).toBe(false);
    expect(adaptIndentation(['        x()'], ['    x()'], 'y()')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/new_text/),
    });
  });

  it('an entirely flush-left old_text over lines of different depths: per line when the new text has the same shape, else a reason', () => {
    expect(adapt(['if x:', 'return 1'], ['    if x:', '        return 1'], 'if y:\nreturn 2')).toBe(
      '    if y:\n        return 2',
    );
    expect(adaptIndentation(['if x:', 'return 1'], ['    if x:', '        return 1'], 'if y:\nreturn 2\nreturn 3')).toMatchObject(
      {
        ok: false,
        reason: expect.stringMatching(/flush-left.*different depths/),
      },
    );
  });
});

// Edit cases in the spirit of other projects' edit tests (our own equivalents, not their code):
// opencode's replacer tests (tool/edit.test.ts: line-trimmed, indentation-flexible and
// whitespace-normalized replacers) and Aider's "flexible search and replace" cases (relative
// indentation, leading whitespace removed from SEARCH/REPLACE blocks).
describe('peer edit cases', () => {
  const apply = (text: string, oldText: string, newText: string) => {
    const outcome = matchEdit(text, oldText, newText, false);
    if (outcome.kind !== 'matched') return outcome;
    let out = '';
    let last = 0;
    for (const r of outcome.ranges) {
      out += text.slice(last, r.start) + outcome.newText;
      last = r.end;
    }
    return out + text.slice(last);
  };

  it('opencode-style line-trimmed: trailing spaces in the file, none in old_text', () => {
    expect(
      apply('function a() {   \n  return 1;  \n}\n', 'function a() {\n  return 1;\n}', 'function a() {\n  return 2;\n}'),
    ).toBe('function a() {\n  return 2;\n}\n');
  });

  it('opencode-style indentation-flexible: a whole block given with less indentation (spaces)', () => {
    const file = 'class A:\n    def f(self):\n        if x:\n            return 1\n        return 0\n';
    expect(apply(file, 'def f(self):\n    if x:\n        return 1', 'def f(self):\n    if x:\n        return 2')).toBe(
      'class A:\n    def f(self):\n        if x:\n            return 2\n        return 0\n',
    );
  });

  it('Aider-style: SEARCH/REPLACE with the leading whitespace of every line removed, in a Python method', () => {
    const file = 'class A:\n    def f(self):\n        return 1\n';
    expect(apply(file, 'return 1', 'value = 2\nreturn value')).toBe(
      'class A:\n    def f(self):\n        value = 2\n        return value\n',
    );
  });

  it('Aider-style: spaces in the edit, tabs in the file (Go), deeper nesting kept', () => {
    const file = 'func f() {\n\tif ok {\n\t\tdo()\n\t}\n}\n';
    expect(apply(file, '    if ok {\n        do()\n    }', '    if ok {\n        do()\n        more()\n    }')).toBe(
      'func f() {\n\tif ok {\n\t\tdo()\n\t\tmore()\n\t}\n}\n',
    );
  });

  it('tabs in the edit, spaces in the file', () => {
    const file = 'def f():\n    if x:\n        go()\n';
    expect(apply(file, '\tif x:\n\t\tgo()', '\tif y:\n\t\tgo()')).toBe('def f():\n    if y:\n        go()\n');
  });

  it('whitespace-normalized inside a line (opencode): double spaces in old_text', () => {
    expect(apply('const  x =  1;\n', 'const x = 1;', 'const x = 2;')).toBe('const x = 2;\n');
  });

  it('a flush-left old_text in a tab-indented file with indented new_text no longer crashes (issue 13)', () => {
    const file = 'func f() {\n\tif ok {\n\t\tdo()\n\t}\n}\n';
    expect(() => matchEdit(file, 'do()', '    do()\n    more()', false)).not.toThrow();
    expect(apply(file, 'do()', 'do()\nmore()')).toBe('func f() {\n\tif ok {\n\t\tdo()\n\t\tmore()\n\t}\n}\n');
  });

  it('refuses with the lines and a reason instead of a silent de-indent', () => {
    const outcome = matchEdit('def f():\n    if x:\n        go()\n', 'if x:\ngo()', 'if y:\ngo()\nstop()', false);
    expect(outcome).toMatchObject({ kind: 'unadaptable', lines: [2, 3], reason: expect.stringMatching(/different depths/) });
  });
});

describe('similarity', () => {
  it('ranks near-misses above unrelated lines', () => {
    expect(similarity('export function total(items)', 'export function totals(items)')).toBeGreaterThan(0.8);
    expect(similarity('export function total(items)', 'import x from "y"')).toBeLessThan(0.3);
  });
});
