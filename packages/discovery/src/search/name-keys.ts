import { compact } from './text.js';

/** Shortest compact name looked up as a whole-name mention. */
export const MIN_NAME_KEY = 4;

/**
 * Whole-name lookup for identifier mentions in a query ("create_issue", "githubCreateIssue"): a tool
 * is found by its compact name and, for namespaced names ("github__create_issue"), by the compact part
 * after the last "__".
 *
 * Only a hash per key is stored (two ints per tool): no key strings and no map entries at build time,
 * where they cost more than the few lookups a query makes. A lookup scans the hashes (a few µs at 10,000
 * tools) and confirms each hit against the real compact name.
 */
export class NameKeys {
  private readonly names: readonly string[];
  /** Per tool: hash of its compact name, hash of the compact part after "__" (NO_KEY when absent or too short). */
  private readonly hashes: Int32Array;

  constructor(names: readonly string[]) {
    this.names = names;
    this.hashes = new Int32Array(2 * names.length);
    for (let d = 0; d < names.length; d++) {
      const name = names[d] as string;
      this.hashes[2 * d] = compactHash(name, 0);
      const sep = name.lastIndexOf('__');
      this.hashes[2 * d + 1] = sep > 0 ? compactHash(name, sep + 2) : NO_KEY;
    }
  }

  /** Tools whose compact name (or namespaced part) is `key`, in catalog order. */
  docs(key: string): number[] {
    const out: number[] = [];
    if (key.length < MIN_NAME_KEY) return out;
    const h = hashString(key);
    const hashes = this.hashes;
    for (let i = 0; i < hashes.length; i++) {
      if (hashes[i] !== h) continue;
      const d = i >> 1;
      if (out[out.length - 1] === d) continue;
      const name = this.names[d] as string;
      const part = (i & 1) === 0 ? name : name.slice(name.lastIndexOf('__') + 2);
      if (compact(part) === key) out.push(d);
    }
    return out;
  }
}

// Marks "no key"; real hashes are moved off it (see keyHash).
const NO_KEY = 0;
const HASH_SEED = 0x811c9dc5 | 0;
const HASH_PRIME = 0x01000193;

function keyHash(h: number): number {
  return h === NO_KEY ? 1 : h;
}

function hashString(s: string): number {
  let h = HASH_SEED;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), HASH_PRIME);
  return keyHash(h);
}

/**
 * Hash of `compact(name.slice(from))`, or NO_KEY when that is shorter than MIN_NAME_KEY. ASCII names
 * are hashed in place (lower-cased, separators skipped); others go through `compact`.
 */
function compactHash(name: string, from: number): number {
  let h = HASH_SEED;
  let len = 0;
  for (let i = from; i < name.length; i++) {
    let c = name.charCodeAt(i);
    if (c >= 128) {
      const key = compact(name.slice(from));
      return key.length < MIN_NAME_KEY ? NO_KEY : hashString(key);
    }
    if (c >= 65 && c <= 90) c += 32;
    else if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) continue;
    h = Math.imul(h ^ c, HASH_PRIME);
    len++;
  }
  return len < MIN_NAME_KEY ? NO_KEY : keyHash(h);
}
