import { describe, expect, it } from 'vitest';
import { savedCallText } from './saved-call-text.js';

describe('savedCallText', () => {
  it('shows command output as the terminal did: stdout, then stderr under a marker line', () => {
    expect(savedCallText({ input: {}, output: { stdout: 'out', stderr: 'err', exitCode: 1 } })).toBe('out\n--- stderr ---\nerr');
    expect(savedCallText({ input: {}, output: { stdout: 'out\n', stderr: 'err' } })).toBe('out\n--- stderr ---\nerr');
    expect(savedCallText({ input: {}, output: { stdout: 'only\n', stderr: '' } })).toBe('only\n');
  });

  it('keeps a string as it is and shows anything else as indented JSON', () => {
    expect(savedCallText({ input: {}, output: 'line 1\nline 2' })).toBe('line 1\nline 2');
    expect(savedCallText({ input: {}, output: { entries: [1] } })).toBe('{\n  "entries": [\n    1\n  ]\n}\n');
    expect(savedCallText({ input: {}, output: undefined })).toBe('undefined\n');
  });

  it('shows the raw input on request, never reading it as command output', () => {
    expect(savedCallText({ input: { stdout: 'looks like output' }, output: '' }, 'input')).toBe(
      '{\n  "stdout": "looks like output"\n}\n',
    );
    expect(savedCallText({ input: 'raw text', output: '' }, 'input')).toBe('raw text');
  });
});
