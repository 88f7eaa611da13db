import type { Bm25fIndex } from './bm25f.js';
import type { CatalogueNames } from './names.js';
import { terms } from './text.js';
import type { ToolText } from './tool-terms.js';

/**
 * Prerequisite tools: for each tool, the tools of its own server that produce a value it requires.
 * A required parameter names a thing ("token", "channel_id", "repo"); the sibling whose name holds
 * every word of it ("GetUserToken", "list_channels", "search_repos") and which does not take that
 * parameter itself is where the model gets the value, so a request for the consumer is also a
 * request for its producer (the tool-dependency idea of ToolNet and Graph RAG-Tool Fusion, read from
 * the schemas alone). When two or more siblings would qualify the link is a guess, and none is kept.
 *
 * Consumers of tool d are not needed; producers of d are `docs[start[d] .. start[d + 1])`.
 */
export interface Prerequisites {
  /** Producers of tool d are `docs[start[d] .. start[d + 1])`. */
  start: Int32Array;
  /** Producer tool positions, per consumer. */
  docs: Int32Array;
  /** True when the work budget ran out and later parameters were left unlinked (see {@link checkBudget}). */
  exhausted: boolean;
}

/**
 * Candidate checks allowed per build: {@link CHECKS_PER_TOOL} per tool plus {@link CHECKS_BASE}. The six
 * dev catalogues need at most 7 per tool; a server whose tool names and required parameters are built to
 * make every lookup scan thousands of names (two word groups, parameters mixing them) would otherwise
 * make the build quadratic (4.5 s instead of 0.5 s at 10,000 tools). Links are a ranking aid: when the
 * budget is spent, the remaining parameters are simply not linked.
 */
export function checkBudget(tools: number): number {
  return CHECKS_PER_TOOL * tools + CHECKS_BASE;
}
const CHECKS_PER_TOOL = 64;
const CHECKS_BASE = 100_000;

// The stem of "id"/"ids": the handle suffix of a reference ("user_id" names a user, not an id).
const HANDLE_WORD = 'id';

let lookups = 0;

/** (server, required parameter) pairs resolved so far, in this process (for tests). */
export function prerequisiteLookups(): number {
  return lookups;
}

/** The producers of every tool's required parameters (see {@link Prerequisites}). */
export function findPrerequisites(
  entries: readonly ToolText[],
  ix: Bm25fIndex,
  names: CatalogueNames,
  namedBy: NamedBy,
  inherited?: InheritedLinks,
): Prerequisites {
  const n = entries.length;
  const start = new Int32Array(n + 1);
  const list: number[] = [];
  // Tools of one server share their parameters ("owner", "repo"): each (server, parameter) is resolved once.
  const resolved = new Map<string, number>();
  // Links never cross servers, so the tools of an unchanged server keep theirs, renumbered, and only
  // the changed servers' tools are resolved, with a budget of their own: a hostile server that comes
  // up spends its own budget, not the links of the servers already there. (An earlier index whose
  // budget ran out hands on the links it made; the ones it did not make wait for a full build.)
  const kept = inherited?.keep.length ?? 0;
  if (inherited !== undefined) {
    const { links, keep } = inherited;
    const newOf = renumbering(inherited);
    for (let d = 0; d < kept; d++) {
      const old = keep[d] as number;
      for (let i = links.start[old] as number; i < (links.start[old + 1] as number); i++) {
        const producer = newOf[links.docs[i] as number] as number;
        if (producer >= 0) list.push(producer);
      }
      start[d + 1] = list.length;
    }
  }
  const budget = { left: checkBudget(n - kept) };
  for (let d = kept; d < n; d++) {
    const required = (entries[d] as ToolText).required;
    const sid = names.serverOf[d] as number;
    const from = list.length;
    if (required !== undefined && sid >= 0) {
      for (const param of required) {
        const key = `${sid}\u0000${param}`;
        let producer = resolved.get(key);
        if (producer === undefined) {
          lookups++;
          producer = budget.left > 0 ? soleProducer(param, sid, entries, ix, names.serverOf, namedBy, budget) : -1;
          resolved.set(key, producer);
        }
        if (producer >= 0 && producer !== d && list.indexOf(producer, from) < 0) list.push(producer);
      }
    }
    start[d + 1] = list.length;
  }
  return { start, docs: Int32Array.from(list), exhausted: budget.left <= 0 || inherited?.links.exhausted === true };
}

/** The links of the index this one was derived from, and which of its tools this one kept. */
export interface InheritedLinks {
  links: Prerequisites;
  /** `keep[i]` is the earlier index's number of this index's tool i; tools from `keep.length` on are new. */
  keep: readonly number[];
}

/** The earlier index's tool numbers → this index's (-1: not kept). */
function renumbering({ links, keep }: InheritedLinks): Int32Array {
  const newOf = new Int32Array(links.start.length - 1).fill(-1);
  for (let i = 0; i < keep.length; i++) newOf[keep[i] as number] = i;
  return newOf;
}

/** Tools by name term: tools of term t are `docs[start[t] .. start[t + 1])`, ascending. */
export interface NamedBy {
  start: Int32Array;
  docs: Int32Array;
}

/**
 * The one tool of server `sid` whose name holds every word of `param` and which does not take it; -1
 * if none or several. Only the tools named by the rarest of the words are looked at (not the whole
 * server: one server of a 10,000-tool catalogue may hold thousands).
 */
function soleProducer(
  param: string,
  sid: number,
  entries: readonly ToolText[],
  ix: Bm25fIndex,
  serverOf: Int32Array,
  namedBy: NamedBy,
  budget: { left: number },
): number {
  const ids: number[] = [];
  let rarest = -1;
  for (const term of terms(param)) {
    if (term === HANDLE_WORD) continue;
    const id = ix.vocab.get(term);
    if (id === undefined) return -1; // no tool name can hold a word the catalogue lacks
    ids.push(id);
    if (rarest < 0 || size(namedBy, id) < size(namedBy, rarest)) rarest = id;
  }
  if (rarest < 0) return -1;
  budget.left -= size(namedBy, rarest);
  if (budget.left < 0) return -1;
  let found = -1;
  for (let i = namedBy.start[rarest] as number; i < (namedBy.start[rarest + 1] as number); i++) {
    const j = namedBy.docs[i] as number;
    if (serverOf[j] !== sid || !namesAll(ix, j, ids) || (entries[j] as ToolText).paramText?.names.includes(param)) continue;
    if (found >= 0) return -1;
    found = j;
  }
  return found;
}

function size(namedBy: NamedBy, id: number): number {
  return (namedBy.start[id + 1] as number) - (namedBy.start[id] as number);
}

function namesAll(ix: Bm25fIndex, d: number, ids: readonly number[]): boolean {
  const from = ix.nameStart[d] as number;
  const to = ix.nameStart[d + 1] as number;
  for (const id of ids) {
    let has = false;
    for (let i = from; i < to && !has; i++) has = ix.nameTerms[i] === id;
    if (!has) return false;
  }
  return true;
}
