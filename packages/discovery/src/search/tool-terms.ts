import type { RegexDocument } from './regex-search.js';
import type { SchemaText } from './schema-text.js';
import { TermReader } from './term-reader.js';
import { isStopWord, stem } from './text.js';
import { splitRunTogether } from './unknown-words.js';

/** Fields of a tool, in this order: name, server, description, parameter names + descriptions, example values. */
export const FIELD_COUNT = 5;

/**
 * The catalogue's words: raw word → stemmed term id (stop words -1), and term text by id. It only
 * grows; an index derived from another (`replaceServer`) works on a copy, so the older index keeps
 * its own ids.
 */
export class Vocabulary {
  /** Stemmed term → term id. */
  readonly vocab: Map<string, number>;
  /** Term text by id. */
  readonly terms: string[];
  /** Raw (unstemmed) catalogue word → term id, or -1 for a stop word. */
  readonly wordIds: Map<string, number>;

  constructor(from?: Vocabulary) {
    this.vocab = new Map(from?.vocab);
    this.terms = from ? from.terms.slice() : [];
    this.wordIds = new Map(from?.wordIds);
  }

  /** The term id of a raw lower-case word, added when new (stemming resolved once per distinct word). */
  idOf(word: string): number {
    let id = this.wordIds.get(word);
    if (id !== undefined) return id;
    if (isStopWord(word)) id = -1;
    else {
      const s = stem(word);
      id = this.vocab.get(s);
      if (id === undefined) {
        id = this.terms.length;
        this.vocab.set(s, id);
        this.terms.push(s);
      }
    }
    this.wordIds.set(word, id);
    return id;
  }

  /** True for a raw word of the catalogue that is not a stop word. */
  readonly isWord = (word: string): boolean => (this.wordIds.get(word) ?? -1) >= 0;
}

/** One tool's term ids: what an index derived by `replaceServer` reuses for every unchanged tool. */
export interface ToolTerms {
  /** Term ids of the five fields in text order, concatenated (stop words dropped). */
  tokens: Int32Array;
  /** End of each field in `tokens` (name, server, description, parameters, example values). */
  fieldEnd: Int32Array;
  /** Term ids of the pieces of run-together name words ("searchjobs" → search, jobs). */
  pieces: Int32Array;
}

/** A tool's text as the index reads it: `paramText`, when given, is what `params` joins (one per line). */
export interface ToolText extends RegexDocument {
  /** Parameter names, descriptions and example values, read one by one (no joined string is made). */
  readonly paramText?: SchemaText;
  /** The schema's required top-level parameters (for prerequisite tools, see prerequisites.ts). */
  readonly required?: readonly string[];
}

/**
 * The parameters field: names, then descriptions, each part read alone (the split of `params`, whose
 * line breaks only separate words; a part that recurs across tools is read once).
 */
function readParams(e: ToolText, reader: TermReader): void {
  if (e.paramText === undefined) {
    reader.read(e.params);
    return;
  }
  for (const part of e.paramText.names) reader.readRepeated(part);
  for (const part of e.paramText.descriptions) reader.readRepeated(part);
}

/**
 * Term ids of `docs`, adding their words to `vocabulary`. Run-together name words are split into
 * words of the vocabulary once all of `docs` are read (so a catalogue's own words are known).
 */
export function tokenizeTools(docs: readonly ToolText[], vocabulary: Vocabulary, splitNames: boolean): ToolTerms[] {
  const reader = new TermReader(vocabulary);
  const longNameWords: string[][] = [];
  // Every tool's ids go into the reader's one buffer, and every tool's field ends into one array; each
  // tool gets views of them (no typed array, and no backing store, of its own: the build makes 10,000s).
  const toolStart = new Int32Array(docs.length + 1);
  const fieldEnds = new Int32Array(docs.length * FIELD_COUNT);
  docs.forEach((e, d) => {
    const start = reader.count;
    const at = d * FIELD_COUNT;
    const long: string[] = [];
    reader.read(e.name, long);
    fieldEnds[at] = reader.count - start;
    reader.readRepeated(e.server);
    fieldEnds[at + 1] = reader.count - start;
    reader.read(e.description);
    fieldEnds[at + 2] = reader.count - start;
    readParams(e, reader);
    fieldEnds[at + 3] = reader.count - start;
    // Example values: a field of their own, so that their length does not normalise the descriptions'.
    // Read, not readRepeated: they are short and mostly distinct ("chicken soup", an id), so a memo of
    // them cost more (a Map entry each, 8 ms at 10,000 tools) than reading them again.
    if (e.paramText !== undefined) for (const part of e.paramText.values) reader.read(part);
    fieldEnds[at + 4] = reader.count - start;
    toolStart[d + 1] = reader.count;
    longNameWords.push(long);
  });
  // Trimmed once, so the views do not pin the buffer's spare capacity. (A tool an index derived by
  // `replaceServer` keeps holds this buffer alive: at most one build's ids, which were alive anyway.)
  const ids = reader.ids.slice(0, reader.count);
  const out: ToolTerms[] = docs.map((_, d) => ({
    tokens: ids.subarray(toolStart[d] as number, toolStart[d + 1] as number),
    fieldEnd: fieldEnds.subarray(d * FIELD_COUNT, (d + 1) * FIELD_COUNT),
    pieces: EMPTY,
  }));
  if (splitNames) {
    // Long name words repeat across tools ("getuserprofile" in many servers): split each once.
    const splits = new Map<string, number[]>();
    const piecesOf = (word: string): number[] => {
      let ids = splits.get(word);
      if (ids === undefined) {
        ids = [];
        for (const piece of splitRunTogether(word, vocabulary.isWord) ?? []) {
          const id = vocabulary.vocab.get(stem(piece));
          if (id !== undefined && !isStopWord(piece)) ids.push(id);
        }
        splits.set(word, ids);
      }
      return ids;
    };
    out.forEach((tool, d) => {
      const ids = (longNameWords[d] as string[]).flatMap(piecesOf);
      if (ids.length > 0) tool.pieces = Int32Array.from(ids);
    });
  }
  return out;
}

const EMPTY = new Int32Array(0);
