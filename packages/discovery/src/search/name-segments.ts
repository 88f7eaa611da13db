import type { CatalogTokens } from './catalog-tokens.js';
import { F_DESC } from './fields.js';
import { segment } from './segment.js';

/** Extra (doc, term) pairs from split name words, in doc order. */
export interface NameSegments {
  doc: number[];
  term: number[];
}

/**
 * Run-together name words ("bulkgenerateguids", "getfileversions") split into words the catalog uses
 * in descriptions or parameters, so "generate guids" finds them. A name word is split once however many
 * tools use it.
 */
export function segmentNameWords(cat: CatalogTokens): NameSegments {
  const { words, tokTerm, tokField, nameRaw, nameRawStart } = cat;
  const out: NameSegments = { doc: [], term: [] };
  const inText = new Uint8Array(cat.vocabTerms.length);
  for (let i = 0; i < tokTerm.length; i++) if ((tokField[i] as number) >= F_DESC) inText[tokTerm[i] as number] = 1;
  const termOf = (piece: string): number | undefined => {
    const entry = words.find(piece);
    return entry < 0 ? undefined : (words.values[entry] as number);
  };
  // Pieces must be words seen in the catalog as such (no stemming of every substring); stop words
  // may join them ("popularsitesforquery") but are not indexed.
  const isKnown = (piece: string): boolean => {
    const id = termOf(piece);
    return id !== undefined && (id < 0 || inText[id] === 1);
  };
  // Per raw name word (entry in `words`): its pieces' term ids, null when it has none.
  const splits: (number[] | null | undefined)[] = new Array(words.size);
  for (let d = 0; d + 1 < nameRawStart.length; d++) {
    for (let j = nameRawStart[d] as number; j < (nameRawStart[d + 1] as number); j++) {
      const entry = nameRaw[j] as number;
      let ids = splits[entry];
      if (ids === undefined) {
        ids = null;
        const w = words.words[entry] as string;
        if (w.length >= 6 && inText[words.values[entry] as number] !== 1) {
          const pieces = segment(w, isKnown);
          if (pieces) ids = pieces.map((p) => termOf(p) as number).filter((id) => id >= 0);
        }
        splits[entry] = ids;
      }
      if (ids) for (const id of ids) out.doc.push(d), out.term.push(id);
    }
  }
  return out;
}
