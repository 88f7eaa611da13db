/**
 * Splits a run-together word ("bulkgenerateguids", "getweather") into known words, when it can be
 * covered entirely by known words of at least 3 letters. Fewest pieces wins; ties prefer the
 * longer first piece. `isKnown` decides what a word is. Returns undefined when no full split into two or more pieces exists.
 */
// Longest piece tried: longer dictionary words are rare, and the bound keeps the search linear.
const MAX_PIECE = 14;

export function segment(word: string, isKnown: (piece: string) => boolean, maxLength = 40): string[] | undefined {
  const n = word.length;
  if (n < 6 || n > maxLength) return undefined;
  // best[i] = fewest pieces covering word[0, i); from[i] = start of the last piece.
  const best = new Int32Array(n + 1).fill(1 << 30);
  const from = new Int32Array(n + 1).fill(-1);
  best[0] = 0;
  for (let end = 3; end <= n; end++) {
    for (let start = Math.max(0, end - MAX_PIECE); start <= end - 3; start++) {
      const prev = best[start] as number;
      if (prev >= 1 << 30 || prev + 1 >= (best[end] as number)) continue;
      if (isKnown(word.slice(start, end))) {
        best[end] = prev + 1;
        from[end] = start;
      }
    }
  }
  if ((best[n] as number) < 2 || (best[n] as number) >= 1 << 30) return undefined;
  const pieces: string[] = [];
  for (let end = n; end > 0; end = from[end] as number) pieces.push(word.slice(from[end] as number, end));
  return pieces.reverse();
}
