/**
 * What to do with a query word the catalogue never uses: a one-edit typo of a catalogue term
 * ("wether" → weather), or a run-together pair of catalogue words ("getforecast" → get forecast).
 * Both only look at the catalogue's own vocabulary; the deletion table is built on first need.
 */
export class UnknownWords {
  // Symmetric-delete table: every term and each of its one-letter deletions → the terms it came from.
  private deletes: Map<string, number[]> | undefined;
  // Unknown words recur (every clause of a query is ranked again, and users repeat themselves).
  private readonly memo = new Map<string, number[]>();

  /**
   * @param terms Term text by term id (stemmed catalogue words).
   * @param isWord True for a raw catalogue word (for splitting run-together words).
   */
  constructor(
    private readonly terms: readonly string[],
    private readonly isWord: (word: string) => boolean,
  ) {}

  /** Term ids within one edit (insert, delete, substitute, swap) of `word`; only for words of ≥ 5 letters. */
  near(word: string): number[] {
    if (word.length < 5 || /[0-9]/.test(word)) return [];
    const known = this.memo.get(word);
    if (known) return known;
    const table = (this.deletes ??= this.build());
    const out = new Set<number>();
    for (const key of [word, ...deletions(word)]) {
      for (const id of table.get(key) ?? []) if (withinOneEdit(word, this.terms[id] as string)) out.add(id);
    }
    if (this.memo.size >= 10_000) this.memo.clear();
    const ids = [...out];
    this.memo.set(word, ids);
    return ids;
  }

  /** `word` as two or three catalogue words ("getforecast" → ["get", "forecast"]), or undefined. */
  split(word: string): string[] | undefined {
    if (word.length < 6 || word.length > 30) return undefined;
    return splitRunTogether(word, this.isWord);
  }

  private build(): Map<string, number[]> {
    const table = new Map<string, number[]>();
    const add = (key: string, id: number): void => {
      const list = table.get(key);
      if (list === undefined) table.set(key, [id]);
      else if (list[list.length - 1] !== id) list.push(id);
    };
    this.terms.forEach((term, id) => {
      if (term.length < 4 || /[0-9]/.test(term)) return;
      add(term, id);
      for (const d of deletions(term)) add(d, id);
    });
    return table;
  }
}

function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** True when `a` and `b` differ by at most one insertion, deletion, substitution or adjacent swap. */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** `word` as two or three words that satisfy `isWord` (pieces of ≥ 3 letters), or undefined. */
export function splitRunTogether(word: string, isWord: (w: string) => boolean): string[] | undefined {
  return splitInto(word, isWord, 3);
}

/** Splits `word` into at most `parts` pieces of ≥ 3 letters that all satisfy `isWord`, longest first piece first. */
function splitInto(word: string, isWord: (w: string) => boolean, parts: number): string[] | undefined {
  if (parts === 1) return isWord(word) ? [word] : undefined;
  for (let cut = word.length - 3; cut >= 3; cut--) {
    const head = word.slice(0, cut);
    if (!isWord(head)) continue;
    const tail = word.slice(cut);
    if (isWord(tail)) return [head, tail];
    const rest = splitInto(tail, isWord, parts - 1);
    if (rest) return [head, ...rest];
  }
  return undefined;
}
