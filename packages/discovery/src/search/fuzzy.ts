/**
 * Typo tolerance for query words that are not in the index vocabulary: a deletion-neighbourhood
 * ("symmetric delete") lookup finds vocabulary terms within one edit (insert, delete, substitute or
 * swap two neighbours). Deletion tables are built lazily per word length, on the first unknown query
 * word that needs them, so index build stays cheap and exact-vocabulary queries never pay for them.
 */
export class FuzzyVocabulary {
  private readonly terms: readonly string[];
  private readonly ids: ReadonlyMap<string, number>;
  /** Term ids by term length, grouped on first use. */
  private byLength: Map<number, number[]> | undefined;
  /** Per term length: deletion variant → ids of terms of that length that produce it. */
  private readonly deletes = new Map<number, Map<string, number[]>>();

  constructor(terms: readonly string[], ids: ReadonlyMap<string, number>) {
    this.terms = terms;
    this.ids = ids;
  }

  /** Ids of vocabulary terms at edit distance exactly 1 from `word` (none for words under 4 letters). */
  near(word: string): number[] {
    if (word.length < MIN_FUZZY_LENGTH) return [];
    const found = new Set<number>();
    const add = (list: number[] | undefined): void => {
      if (list) for (const id of list) found.add(id);
    };
    add(this.table(word.length + 1).get(word)); // word lacks a letter
    const same = this.table(word.length);
    for (const d of deletions(word)) {
      const id = this.ids.get(d); // word has an extra letter
      if (id !== undefined) found.add(id);
      add(same.get(d)); // substitution or transposition
    }
    const out: number[] = [];
    for (const id of found) {
      const term = this.terms[id] as string;
      if (term !== word && withinOneEdit(word, term)) out.push(id);
    }
    return out.sort((a, b) => a - b);
  }

  private table(length: number): Map<string, number[]> {
    let map = this.deletes.get(length);
    if (map) return map;
    map = new Map();
    if (!this.byLength) {
      const byLength = new Map<number, number[]>();
      this.terms.forEach((term, id) => {
        if (term.length < MIN_FUZZY_LENGTH - 1 || /[0-9]/.test(term)) return;
        const list = byLength.get(term.length);
        if (list) list.push(id);
        else byLength.set(term.length, [id]);
      });
      this.byLength = byLength;
    }
    for (const id of this.byLength.get(length) ?? []) {
      for (const d of deletions(this.terms[id] as string)) {
        const list = map.get(d);
        if (!list) map.set(d, [id]);
        else if (list[list.length - 1] !== id) list.push(id);
      }
    }
    this.deletes.set(length, map);
    return map;
  }
}

/** Shorter words have too many one-edit neighbours to correct safely. */
export const MIN_FUZZY_LENGTH = 4;

function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** Optimal-string-alignment distance ≤ 1 (one insert, delete, substitution or adjacent swap). */
export function withinOneEdit(a: string, b: string): boolean {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (i === la) return true;
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swap
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
