/**
 * Start offsets of the non-overlapping occurrences of `needle` in `haystack`, left to right: how
 * `editFile` counts its `oldText` (one match or `SandboxEditError`). Strings count in UTF-16 code
 * units, Buffers in bytes; an empty needle occurs nowhere.
 */
export function occurrences(haystack: string, needle: string): number[];
export function occurrences(haystack: Buffer, needle: Buffer): number[];
export function occurrences(haystack: string | Buffer, needle: string | Buffer): number[] {
  const at: number[] = [];
  if (needle.length === 0) return at;
  // `indexOf(needle, from)` has the same meaning on both types.
  const find = (from: number) => (haystack as string).indexOf(needle as string, from);
  for (let i = find(0); i !== -1; i = find(i + needle.length)) at.push(i);
  return at;
}
