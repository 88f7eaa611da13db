/**
 * The whitespace tolerance levels of edit matching: how a line is normalized when Unicode spaces,
 * zero-width characters, trailing whitespace or all whitespace differences are to be ignored.
 */

// Spaces a model (or a copy from a web page) writes interchangeably with U+0020.
const UNICODE_SPACES = /[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/g;
const ZERO_WIDTH = /[\u200b\u200c\u200d\u2060\ufeff]/g;

/** Unicode spaces → U+0020, keeping every offset. */
export function mapSpaces(text: string): string {
  // Length-preserving, so offsets found in the mapped text are offsets in the original.
  return text.replace(UNICODE_SPACES, ' ');
}

/** Any character that `unspecial` changes (a fast pre-test). */
export const SPECIAL = /[\u00a0\u1680\u2000-\u200d\u202f\u205f\u2060\u3000\ufeff]/;
const unspecial = (line: string) => (SPECIAL.test(line) ? mapSpaces(line).replace(ZERO_WIDTH, '') : line);
/** A line with Unicode spaces made plain and trailing whitespace removed. */
export const trailingLevel = (line: string) => unspecial(line).replace(/[ \t]+$/, '');
const MULTI_SPACE = /\s{2,}|[^\S ]/;
/** A line with every run of whitespace made one space and both ends trimmed. */
export const whitespaceLevel = (line: string) => {
  const trimmed = unspecial(line).trim();
  // Most lines have single plain spaces only: skip the replace for them.
  return MULTI_SPACE.test(trimmed) ? trimmed.replace(/\s+/g, ' ') : trimmed;
};
