import { describe, expect, it } from 'vitest';
import { escapeControl, escapeControlLine, plural, tidyMessage } from './terminal-text.js';

describe('escapeControl', () => {
  it('shows escape sequences, carriage returns and bidi overrides visibly, and keeps newlines and tabs', () => {
    const hostile = 'ok\u001b[2K\u001b[1Aapproved? y\rX\u0007\t\u009b\u202eevil\n';
    expect(escapeControl(hostile)).toBe('ok\\x1b[2K\\x1b[1Aapproved? y\\rX\\x07\t\\x9b\\u202eevil\n');
    expect(escapeControl('a\r\nb')).toBe('a\nb');
    expect(escapeControl('plain text, ünïcödé ✓')).toBe('plain text, ünïcödé ✓');
  });

  it('escapes newlines too for one-line fields', () => {
    expect(escapeControlLine('a\nb\tc\u001b')).toBe('a\\nb\\tc\\x1b');
  });
});

describe('plural', () => {
  it('uses the singular for exactly one', () => {
    expect([
      plural(0, 'file'),
      plural(1, 'file'),
      plural(2, 'file'),
      plural(1, 'entry', 'entries'),
      plural(3, 'entry', 'entries'),
    ]).toEqual(['0 files', '1 file', '2 files', '1 entry', '3 entries']);
  });
});

describe('tidyMessage', () => {
  it('says a repeated prefix once', () => {
    expect(tidyMessage('[execution] ls: ls: no such folder "x".')).toBe('[execution] ls: no such folder "x".');
    expect(tidyMessage('[parameters] grep: grep: grep: bad regex')).toBe('[parameters] grep: bad regex');
    expect(tidyMessage('ls: not found', ['ls'])).toBe('not found');
  });

  it('ends a sentence with one period but keeps ellipses and paths', () => {
    expect(tidyMessage('the file is missing.. Fix: create it.')).toBe('the file is missing. Fix: create it.');
    expect(tidyMessage('cannot read "a"..')).toBe('cannot read "a".');
    expect(tidyMessage('wait... then cd .. and ../x')).toBe('wait... then cd .. and ../x');
  });
});
