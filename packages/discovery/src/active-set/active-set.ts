import { TOOL_SEARCH_TOOL_NAME } from '../tool-search/constants.js';

/** What a run starts from. */
export interface ActiveSetOptions {
  /** Built-in core tools: always active, never deferred. */
  core?: Iterable<string>;
  /** Tools the gate put straight into the tool set (direct MCP tools, ...). */
  direct?: Iterable<string>;
  /** Deferred tools: active only once discovered (through `tool_search`, or found again in history). */
  deferred?: Iterable<string>;
  /**
   * Whether a tool can be called now (for MCP: its server is connected). Tools for which it
   * returns `false` leave `names()` until it returns `true` again; discovery is kept.
   * `McpManager.isAvailable` fits here.
   */
  isAvailable?: (name: string) => boolean;
}

/** A message of the AI SDK's `ModelMessage[]` history, as far as `rebuildFromHistory` reads it. */
export interface HistoryMessage {
  /** `system`, `user`, `assistant` or `tool`. */
  role: string;
  /** Text, or content parts (tool calls, tool results, ...). */
  content: unknown;
}

/**
 * The tools a run may call at each step: core and direct tools from the start, plus deferred
 * tools once discovered. `tool_search` calls `markDiscovered` during a step; the host reads
 * `names()` when it prepares the next step (for example as `activeTools` in `prepareStep`), so a
 * discovered tool joins from the next step.
 */
export interface ActiveSet {
  /** The active tool names now: core, direct, then discovered deferred tools, in that order (unavailable ones left out). */
  names(): string[];
  /** Whether one tool is active now. */
  has(name: string): boolean;
  /** Deferred tools discovered in this run (available or not), in discovery order. */
  discovered(): string[];
  /** The deferred tools known to this set. */
  deferred(): string[];
  /**
   * Marks deferred tools as discovered; names that are not deferred (core, direct, unknown) are
   * ignored. Returns the names that were newly discovered.
   */
  markDiscovered(names: Iterable<string>): string[];
  /** Forgets every discovery (a fresh run without history). */
  reset(): void;
  /**
   * Rebuilds discovery from the history that survived compaction: a deferred tool referenced by
   * a surviving tool call, tool result or `tool_search` result is discovered again; one whose
   * references were compacted away must be found again. Replaces the current discoveries and
   * returns them.
   */
  rebuildFromHistory(messages: readonly HistoryMessage[]): string[];
  /** Replaces the direct and / or deferred lists (after `tools/list_changed`); discoveries of tools still deferred are kept. */
  update(lists: { core?: Iterable<string>; direct?: Iterable<string>; deferred?: Iterable<string> }): void;
}

/** The deferred tool names referenced by one history (tool calls, tool results, tool_search results). */
export function toolNamesInHistory(messages: readonly HistoryMessage[]): Set<string> {
  const found = new Set<string>();
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content as unknown[]) {
      if (typeof part !== 'object' || part === null) continue;
      const p = part as { type?: unknown; toolName?: unknown; output?: unknown; result?: unknown };
      if ((p.type === 'tool-call' || p.type === 'tool-result') && typeof p.toolName === 'string') {
        found.add(p.toolName);
        if (p.type === 'tool-result' && p.toolName === TOOL_SEARCH_TOOL_NAME) {
          for (const name of namesInToolSearchOutput(p.output ?? p.result)) found.add(name);
        }
      }
    }
  }
  return found;
}

/** Reads tool names out of a `tool_search` result as it appears in history (JSON, or text holding JSON). */
export function namesInToolSearchOutput(output: unknown): string[] {
  let value: unknown = output;
  if (typeof value === 'object' && value !== null && 'type' in value && 'value' in value) {
    value = (value as { value: unknown }).value;
  }
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return [];
    }
  }
  const tools = (value as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(tools)) return [];
  return tools
    .map((t) => (typeof t === 'object' && t !== null ? (t as { name?: unknown }).name : undefined))
    .filter((n): n is string => typeof n === 'string');
}

/**
 * Creates the active set of one run. See {@link ActiveSet}.
 *
 * Every per-step question costs O(1) (`has`) or O(active tools) (`names`), never O(catalogue): a
 * host with 10,000 deferred tools asks them at every step. Only `update` and `rebuildFromHistory`
 * touch every deferred name, and they run once per catalogue change or run start.
 */
export function createActiveSet(options: ActiveSetOptions = {}): ActiveSet {
  let core: string[] = [];
  let coreSet = new Set<string>();
  let direct: string[] = [];
  let directSet = new Set<string>();
  let deferred = new Set<string>();
  // Insertion order of a Set is discovery order, so one structure answers both order and membership.
  let discovered = new Set<string>();
  const available = options.isAvailable ?? (() => true);

  const setCore = (names: Iterable<string>) => {
    coreSet = new Set(names);
    core = [...coreSet];
  };
  const setDirect = (names: Iterable<string>) => {
    directSet = new Set([...names].filter((n) => !coreSet.has(n)));
    direct = [...directSet];
  };
  const setDeferred = (names: Iterable<string>) => {
    deferred = new Set([...names].filter((n) => !coreSet.has(n) && !directSet.has(n)));
  };
  setCore(options.core ?? []);
  setDirect(options.direct ?? []);
  setDeferred(options.deferred ?? []);

  const set: ActiveSet = {
    names() {
      const out = [...core];
      for (const n of direct) if (available(n)) out.push(n);
      for (const n of discovered) if (deferred.has(n) && available(n)) out.push(n);
      return out;
    },
    has(name) {
      if (coreSet.has(name)) return true;
      if (directSet.has(name) || (discovered.has(name) && deferred.has(name))) return available(name);
      return false;
    },
    discovered: () => [...discovered],
    deferred: () => [...deferred],
    markDiscovered(names) {
      const added: string[] = [];
      for (const name of names) {
        if (deferred.has(name) && !discovered.has(name)) {
          discovered.add(name);
          added.push(name);
        }
      }
      return added;
    },
    reset() {
      discovered = new Set();
    },
    rebuildFromHistory(messages) {
      const referenced = toolNamesInHistory(messages);
      discovered = new Set([...referenced].filter((n) => deferred.has(n)));
      return [...discovered];
    },
    update(lists) {
      const wasDirect = direct;
      if (lists.core) setCore(lists.core);
      if (lists.core || lists.direct) setDirect(lists.direct ?? direct);
      if (lists.core || lists.direct || lists.deferred) setDeferred(lists.deferred ?? deferred);
      // A tool the model was offered stays offered when a change defers it (servers that came up after
      // the first step pushed the total over the gate): tools vanishing mid-run mislead the model.
      for (const n of wasDirect) if (deferred.has(n)) discovered.add(n);
      for (const n of discovered) if (!deferred.has(n)) discovered.delete(n);
    },
  };
  return set;
}
