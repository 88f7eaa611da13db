/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher 2009): score(d) = Σ over lists of 1 / (k + rank),
 * rank starting at 1. It needs no score calibration between a BM25 ranking and cosine similarities,
 * and its one constant k = 60 is the value from the paper, not fitted here.
 */
export const RRF_K = 60;

/** Fuses ranked lists of item ids (best first) into one list of [id, score], best first; ties by first appearance. */
export function reciprocalRankFusion(
  lists: readonly (readonly number[])[],
  limit: number,
  k: number = RRF_K,
): [number, number][] {
  const score = new Map<number, number>();
  for (const list of lists) {
    list.forEach((id, r) => score.set(id, (score.get(id) ?? 0) + 1 / (k + r + 1)));
  }
  // Map iteration order is first appearance, and Array.prototype.sort is stable.
  return [...score].sort((a, b) => b[1] - a[1]).slice(0, Math.max(0, limit));
}
