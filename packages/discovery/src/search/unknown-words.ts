let termsRead = 0;

/** Catalogue terms whose deletions were put into a typo table so far, in this process (for tests). */
export function deletionTermsRead(): number {
  return termsRead;
}

/**
 * A symmetric-delete table: every term of at least 4 letters and each of its one-letter deletions →
 * the term ids it came from. `base` covers term ids below `baseCount`, `delta` those from `baseCount`
 * to `count`. Never changed once built, so indexes derived from the one that built it share `base`.
 */
interface DeletionTable {
  base: ReadonlyMap<string, readonly number[]>;
  baseCount: number;
  delta: ReadonlyMap<string, readonly number[]>;
  count: number;
}

// An inherited table is extended while the terms added since its base are at most this share of the
// base's; past it, the table is built afresh (the copied delta would cost nearly as much).
const MAX_DELTA_SHARE = 0.25;

/**
 * What to do with a query word the catalogue never uses: a one-edit typo of a catalogue term
 * ("wether" → weather), or a run-together pair of catalogue words ("getforecast" → get forecast).
 * Both only look at the catalogue's own vocabulary; the deletion table is built on first need, and
 * an index derived after `list_changed` extends the table of the index it came from.
 */
export class UnknownWords {
  private table: DeletionTable | undefined;
  // The table of the index this one was derived from (or of an earlier ancestor), if one was built.
  // Term ids are a prefix of ours (a derived vocabulary only appends), so it is valid for ids < count.
  private readonly inherited: DeletionTable | undefined;
  // Unknown words recur (every clause of a query is ranked again, and users repeat themselves).
  private readonly memo = new Map<string, number[]>();

  /**
   * @param terms Term text by term id (stemmed catalogue words).
   * @param isWord True for a raw catalogue word (for splitting run-together words).
   * @param from The words of the index this one is derived from (`replaceServer`), whose term ids are
   *   a prefix of `terms`: its typo table is reused, and only the terms added since are read.
   */
  constructor(
    private readonly terms: readonly string[],
    private readonly isWord: (word: string) => boolean,
    from?: UnknownWords,
  ) {
    // Only the table is kept, not `from`: a chain of derived indexes must not hold every older one.
    this.inherited = from?.table ?? from?.inherited;
  }

  /** Term ids within one edit (insert, delete, substitute, swap) of `word`; only for words of ≥ 5 letters. */
  near(word: string): number[] {
    if (word.length < 5 || /[0-9]/.test(word)) return [];
    const known = this.memo.get(word);
    if (known) return known;
    const { base, delta } = (this.table ??= this.build());
    const out = new Set<number>();
    for (const key of [word, ...deletions(word)]) {
      for (const id of base.get(key) ?? []) if (withinOneEdit(word, this.terms[id] as string)) out.add(id);
      for (const id of delta.get(key) ?? []) if (withinOneEdit(word, this.terms[id] as string)) out.add(id);
    }
    if (this.memo.size >= 10_000) this.memo.clear();
    const ids = [...out];
    this.memo.set(word, ids);
    return ids;
  }

  /** Builds the typo table now rather than on the first unknown word (`ToolIndex.warmUp`). */
  prepare(): void {
    this.table ??= this.build();
  }

  /** `word` as two or three catalogue words ("getforecast" → ["get", "forecast"]), or undefined. */
  split(word: string): string[] | undefined {
    if (word.length < 6 || word.length > 30) return undefined;
    return splitRunTogether(word, this.isWord);
  }

  private build(): DeletionTable {
    const from = this.inherited;
    const count = this.terms.length;
    if (from !== undefined && from.count <= count && count - from.baseCount <= MAX_DELTA_SHARE * from.baseCount) {
      // The inherited delta's lists are shared with it: a list gets a new array before it grows.
      const delta = new Map(from.delta);
      addTerms(this.terms, from.count, (key, id) => {
        const list = delta.get(key);
        if (list === undefined) delta.set(key, [id]);
        else if (list[list.length - 1] !== id) delta.set(key, [...list, id]);
      });
      return { base: from.base, baseCount: from.baseCount, delta, count };
    }
    const base = new Map<string, number[]>();
    addTerms(this.terms, 0, (key, id) => {
      const list = base.get(key);
      if (list === undefined) base.set(key, [id]);
      else if (list[list.length - 1] !== id) list.push(id);
    });
    return { base, baseCount: count, delta: new Map(), count };
  }
}

/** Calls `add` with each table key of the terms from id `from` on: the term and its one-letter deletions. */
function addTerms(terms: readonly string[], from: number, add: (key: string, id: number) => void): void {
  for (let id = from; id < terms.length; id++) {
    const term = terms[id] as string;
    termsRead++;
    if (term.length < 4 || /[0-9]/.test(term)) continue;
    add(term, id);
    for (const d of deletions(term)) add(d, id);
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
