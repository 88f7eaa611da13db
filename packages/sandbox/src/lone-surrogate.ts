/**
 * Half of a UTF-16 surrogate pair with no other half (as a model cuts an emoji) is text UTF-8 cannot
 * encode: written to a file or passed to a process it silently becomes U+FFFD. Adapters refuse it in
 * written text and commands, and tools refuse it at the parameters stage, with the same finding.
 */

// In a `u` regular expression a paired surrogate is one code point; only a lone half matches.
const LONE_SURROGATE = /\p{Cs}/u;

/** Where `text` has a lone surrogate. */
export interface LoneSurrogate {
  /** The code unit, as it is written in messages ("D83D"). */
  code: string;
  /** Its position in `text` (UTF-16 code units). */
  index: number;
}

/** The first lone surrogate of `text`, or `undefined` when UTF-8 can encode all of it. */
export function findLoneSurrogate(text: string): LoneSurrogate | undefined {
  const found = LONE_SURROGATE.exec(text);
  return found ? { code: found[0].charCodeAt(0).toString(16).toUpperCase(), index: found.index } : undefined;
}
