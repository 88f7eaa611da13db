import type { ToolSet } from 'ai';

/**
 * A tool map for the `activeTools` path that enumerates only the tools offered now (`active()`),
 * while a lookup by name finds any tool of `all`.
 *
 * Why: the AI SDK scans `Object.entries(tools)` twice per step (to filter by `activeTools` and to
 * build the request), which costs O(catalogue) per step with 10,000 deferred tools. Enumerating the
 * active tools only makes that O(active tools); calls are still validated against the step's
 * offered tools, so a call to a tool that is not offered goes to the repair function as before.
 * Tools assigned later (a server's `tools/list_changed`) land in `all`.
 */
export function activeToolMap(all: ToolSet, active: () => readonly string[]): ToolSet {
  const has = (name: string | symbol) => typeof name === 'string' && Object.prototype.hasOwnProperty.call(all, name);
  return new Proxy(Object.create(null) as ToolSet, {
    get: (_target, name) => (has(name) ? all[name as string] : undefined),
    has: (_target, name) => has(name),
    set: (_target, name, value) => {
      if (typeof name !== 'string') return false;
      all[name] = value as ToolSet[string];
      return true;
    },
    deleteProperty: (_target, name) => {
      if (typeof name === 'string') delete all[name];
      return true;
    },
    ownKeys: () => active().filter((name) => has(name)),
    getOwnPropertyDescriptor: (_target, name) =>
      has(name) ? { value: all[name as string], writable: true, enumerable: true, configurable: true } : undefined,
  });
}
