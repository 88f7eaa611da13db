import { describe, expect, it } from 'vitest';
import { modelOutputText, normalizeModelOutput } from './model-output.js';

describe('normalizeModelOutput', () => {
  it('wraps a string as a text view and passes a view through', () => {
    expect(normalizeModelOutput('hi')).toEqual({ type: 'text', value: 'hi' });
    const view = { type: 'json', value: { a: 1 } } as const;
    expect(normalizeModelOutput(view)).toBe(view);
  });
});

describe('modelOutputText: the one text of a model view', () => {
  it.each([
    [{ type: 'text', value: 'plain' }, 'plain'],
    [{ type: 'error-text', value: 'failed' }, 'failed'],
    [{ type: 'json', value: { a: [1, 2] } }, '{"a":[1,2]}'],
    [{ type: 'error-json', value: null }, 'null'],
    [{ type: 'execution-denied', reason: 'no' }, 'Execution denied: no'],
    [{ type: 'execution-denied' }, 'Execution denied'],
    [
      {
        type: 'content',
        value: [
          { type: 'text', text: 'one' },
          { type: 'media', data: 'AA==' },
        ],
      },
      'one\n{"type":"media","data":"AA=="}',
    ],
    [{ type: 'from-a-newer-version', value: 1 }, '{"type":"from-a-newer-version","value":1}'],
  ])('%j → %s', (view, text) => {
    expect(modelOutputText(view)).toBe(text);
  });
});
