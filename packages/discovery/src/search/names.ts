import type { RegexDocument } from './regex-search.js';
import { compact, type QueryWord } from './text.js';

let compacted = 0;

/** Tool names compacted for a name table so far, in this process (for tests). */
export function compactedNames(): number {
  return compacted;
}

/**
 * Which tools and servers a query names outright: a tool spelled as an identifier ("create_issue"),
 * a server by a word or two or three joined words ("git hub" → github). Server ids and member lists
 * are built with the index (one map lookup per tool); the compact tool-name table only on the first
 * query that contains an identifier, since most queries never need it.
 */
export class CatalogueNames {
  /** Server id of each tool (-1 = none). */
  readonly serverOf: Int32Array;
  /** Number of distinct servers. */
  readonly serverCount: number;
  private readonly members: number[][] = [];
  private readonly serverByKey = new Map<string, number>();
  private toolByKey: Map<string, number> | undefined;

  constructor(private readonly entries: readonly RegexDocument[]) {
    const serverIds = new Map<string, number>();
    this.serverOf = new Int32Array(entries.length).fill(-1);
    entries.forEach((e, d) => {
      if (!e.server) return;
      let sid = serverIds.get(e.server);
      if (sid === undefined) {
        serverIds.set(e.server, (sid = serverIds.size));
        this.members.push([]);
      }
      this.serverOf[d] = sid;
      (this.members[sid] as number[]).push(d);
    });
    this.serverCount = serverIds.size;
    for (const [server, sid] of serverIds) {
      const key = compact(server);
      if (key.length >= 3 && !this.serverByKey.has(key)) this.serverByKey.set(key, sid);
    }
  }

  /** Tools of server `sid`, in catalogue order. */
  membersOf(sid: number): readonly number[] {
    return this.members[sid] ?? [];
  }

  /** Tools whose compact name (whole, or without a "server__" namespace) equals one of `identifiers`. */
  toolsNamed(identifiers: readonly string[]): Set<number> {
    const named = new Set<number>();
    if (identifiers.length === 0) return named;
    const table = (this.toolByKey ??= this.buildToolTable());
    for (const ident of identifiers) {
      const d = table.get(ident);
      if (d !== undefined) named.add(d);
    }
    return named;
  }

  /** Builds the tool-name table now rather than on the first query that holds an identifier (`ToolIndex.warmUp`). */
  prepare(): void {
    this.toolByKey ??= this.buildToolTable();
  }

  /** Servers named by one query word or by two or three adjacent ones written together. */
  serversNamed(words: readonly QueryWord[]): Set<number> {
    const named = new Set<number>();
    if (this.serverByKey.size === 0) return named;
    for (let i = 0; i < words.length; i++) {
      let key = '';
      for (let j = i; j < Math.min(words.length, i + 3); j++) {
        key += (words[j] as QueryWord).word;
        const sid = this.serverByKey.get(key);
        if (sid !== undefined) named.add(sid);
      }
    }
    return named;
  }

  // Tools by compact name, whole and without a "server__" namespace ("github__create_issue" → "createissue").
  private buildToolTable(): Map<string, number> {
    const table = new Map<string, number>();
    this.entries.forEach((e, d) => {
      const { key, local } = nameKeys(e);
      if (!table.has(key)) table.set(key, d);
      if (local.length >= 4 && local !== key && !table.has(local)) table.set(local, d);
    });
    return table;
  }
}

// A tool's compact names, by its document: an index derived after list_changed keeps the document of
// every tool it did not re-read, so its table costs a lookup per tool, not a pass over every name.
// Weak: a document's keys go when the last index that holds it does.
const keysOf = new WeakMap<RegexDocument, { key: string; local: string }>();

function nameKeys(e: RegexDocument): { key: string; local: string } {
  let keys = keysOf.get(e);
  if (keys === undefined) {
    compacted++;
    const key = compact(e.name);
    const local = e.name.includes('__') ? compact(e.name.slice(e.name.lastIndexOf('__') + 2)) : '';
    keys = { key, local };
    keysOf.set(e, keys);
  }
  return keys;
}
