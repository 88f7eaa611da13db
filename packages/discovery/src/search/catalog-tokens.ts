import { F_DESC, F_NAME, F_PARAMS, F_SERVER, FIELDS } from './fields.js';
import type { RegexDocument } from './regex-search.js';
import { collectSchemaText, type SchemaText } from './schema-text.js';
import { TokenWriter } from './token-writer.js';
import type { ToolIndexEntry } from './types.js';
import type { WordTable } from './word-table.js';

/** A catalog as flat token arrays: the input of the postings build, and the vocabulary for queries. */
export interface CatalogTokens {
  /** Tool names, by doc. */
  names: string[];
  /** Raw lower-case word → entry; `words.values[entry]` is its term id (-1: stop word). */
  words: WordTable;
  /** Stemmed term → term id. */
  vocab: Map<string, number>;
  /** Term id → stemmed term. */
  vocabTerms: string[];
  /** Term id of every token, tools in order, fields in order within a tool (stop words left out). */
  tokTerm: Int32Array;
  /** Field of every token. */
  tokField: Uint8Array;
  /** Tokens of doc d: docStart[d] .. docStart[d + 1]. */
  docStart: Int32Array;
  /** Per field: token count of each doc. */
  fieldLen: Float64Array[];
  /** Raw word entries of each name, stop words included: nameRaw[nameRawStart[d] .. nameRawStart[d + 1]]. */
  nameRaw: Int32Array;
  nameRawStart: Int32Array;
  /** Server id of each doc (-1: none). */
  serverOf: Int32Array;
  /** Docs of each server. */
  serverDocs: number[][];
  serverNames: string[];
  /** The text regex queries match; joined on first use (most indexes never see a regex query). */
  regexDocs: () => RegexDocument[];
}

/**
 * Tokenises every tool's name, server, description and schema property text into flat typed arrays.
 * Words are looked up in a {@link WordTable} straight from the source text, so a token costs a hash
 * and a compare; stemming and stop-word checks run once per distinct word.
 *
 * @throws TypeError when an entry has no string `name` or two entries share a name.
 */
export function tokenizeCatalog(entries: readonly ToolIndexEntry[]): CatalogTokens {
  const n = entries.length;
  const names: string[] = new Array(n);
  const seen = new Set<string>();
  const out = new TokenWriter();
  const docStart = new Int32Array(n + 1);
  const nameRawStart = new Int32Array(n + 1);
  const fieldLen = Array.from({ length: FIELDS }, () => new Float64Array(n));
  const [nameLen, serverLen, descLen, paramLen] = fieldLen as [Float64Array, Float64Array, Float64Array, Float64Array];
  const serverOf = new Int32Array(n).fill(-1);
  const serverIds = new Map<string, number>();
  const serverDocs: number[][] = [];
  const serverNames: string[] = [];
  const descriptions: string[] = new Array(n);
  const servers: string[] = new Array(n);
  // Parameter texts of all tools, flat (names, then descriptions, per tool): kept for regex queries only.
  const paramTexts: string[] = [];
  const paramStart = new Int32Array(n + 1);
  const schema: SchemaText = { names: [], descriptions: [] };

  for (let d = 0; d < n; d++) {
    const e = entries[d];
    if (!e || typeof e.name !== 'string' || e.name.length === 0) {
      throw new TypeError(`createToolIndex: entry ${d} has no name; every entry needs a non-empty string name.`);
    }
    if (seen.has(e.name)) {
      throw new TypeError(`createToolIndex: duplicate tool name "${e.name}"; names must be unique in one index.`);
    }
    seen.add(e.name);
    names[d] = e.name;
    const description = typeof e.description === 'string' ? e.description : '';
    const server = typeof e.server === 'string' ? e.server : '';
    descriptions[d] = description;
    servers[d] = server;
    docStart[d] = out.tokCount;
    nameRawStart[d] = out.nameRawCount;

    let sid = -1;
    let newServer = false;
    if (server) {
      const known = serverIds.get(server);
      if (known === undefined) {
        sid = serverNames.length;
        serverIds.set(server, sid);
        serverNames.push(server);
        serverDocs.push([]);
        newServer = true;
      } else sid = known;
      serverOf[d] = sid;
      (serverDocs[sid] as number[]).push(d);
    }
    collectSchemaText(e.inputSchema, schema);
    // All of the tool's text in one flat string, scanned once: names are often concatenated ("cons")
    // strings and schema keys internalised ones, and reading characters from a mix of string kinds
    // makes every charCodeAt dispatch on the kind. A server seen before is left out (its tokens are copied).
    // Parameter names, then descriptions: the order regex queries see them in (joined by lines).
    const parts = [e.name, newServer ? server : '', description];
    paramStart[d] = paramTexts.length;
    for (const text of schema.names) parts.push(text), paramTexts.push(text);
    for (const text of schema.descriptions) parts.push(text), paramTexts.push(text);
    const text = parts.join('\n');
    const nameEnd = e.name.length;
    const serverEnd = nameEnd + 1 + (newServer ? server.length : 0);
    const descEnd = serverEnd + 1 + description.length;
    // Non-ASCII text takes the folding path, part by part.
    const ascii = out.scan(text);
    nameLen[d] = ascii ? out.take(text, nameEnd, F_NAME) : out.addText(e.name, F_NAME);
    if (newServer) serverLen[d] = ascii ? out.take(text, serverEnd, F_SERVER) : out.addText(server, F_SERVER);
    else if (sid >= 0) {
      const first = (serverDocs[sid] as number[])[0] as number;
      serverLen[d] = out.copyField(docStart[first] as number, docStart[first + 1] as number, F_SERVER);
    }
    descLen[d] = ascii ? out.take(text, descEnd, F_DESC) : out.addText(description, F_DESC);
    let params = 0;
    if (ascii) params = out.take(text, text.length, F_PARAMS);
    else for (let p = 3; p < parts.length; p++) params += out.addText(parts[p] as string, F_PARAMS);
    paramLen[d] = params;
  }
  docStart[n] = out.tokCount;
  nameRawStart[n] = out.nameRawCount;
  paramStart[n] = paramTexts.length;

  let regexDocs: RegexDocument[] | undefined;
  return {
    names,
    words: out.words,
    vocab: out.vocab,
    vocabTerms: out.vocabTerms,
    tokTerm: out.tokTerm.subarray(0, out.tokCount),
    tokField: out.tokField.subarray(0, out.tokCount),
    docStart,
    fieldLen,
    nameRaw: out.nameRaw.subarray(0, out.nameRawCount),
    nameRawStart,
    serverOf,
    serverDocs,
    serverNames,
    regexDocs: () =>
      (regexDocs ??= names.map((name, d) => ({
        name,
        server: servers[d] as string,
        description: descriptions[d] as string,
        params: paramTexts.slice(paramStart[d], paramStart[d + 1]).join('\n'),
      }))),
  };
}
