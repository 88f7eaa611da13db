import { describe, expect, it } from 'vitest';
import { findLoneSurrogate } from './lone-surrogate.js';

describe('findLoneSurrogate', () => {
  it('finds a high or low half alone, and passes whole pairs and plain text', () => {
    expect(findLoneSurrogate('cut \ud83d emoji')).toEqual({ code: 'D83D', index: 4 });
    expect(findLoneSurrogate('tail \udc00')).toEqual({ code: 'DC00', index: 5 });
    expect(findLoneSurrogate('whole \ud83d\ude00 and é')).toBeUndefined();
    expect(findLoneSurrogate('')).toBeUndefined();
  });
});
