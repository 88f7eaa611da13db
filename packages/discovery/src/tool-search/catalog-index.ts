import type { CatalogTool } from '../catalog.js';
import { createToolIndex } from '../search/index.js';
import type { ToolIndex, ToolIndexOptions } from '../search/index.js';

/** The search index of one catalogue version, with its name lookup. */
export interface CatalogIndex {
  /** The catalogue version (array identity) this index was built for. */
  tools: readonly CatalogTool[];
  index: ToolIndex;
  byName: Map<string, CatalogTool>;
}

// More changed servers than this at once (a reconnect of everything): one full build is simpler.
const MAX_SERVERS_TO_REPLACE = 8;

const sameTool = (a: CatalogTool | undefined, b: CatalogTool): boolean =>
  a !== undefined && a.name === b.name && a.description === b.description && a.inputSchema === b.inputSchema;

function byServer(tools: readonly CatalogTool[]): Map<string | undefined, CatalogTool[]> {
  const out = new Map<string | undefined, CatalogTool[]>();
  for (const t of tools) {
    const list = out.get(t.server);
    if (list) list.push(t);
    else out.set(t.server, [t]);
  }
  return out;
}

/**
 * The index for catalogue version `tools`: derived from `previous` when only a few servers' tool lists
 * changed (`tools/list_changed`: only those servers' tools are read again), else built from scratch.
 */
export function catalogIndex(
  tools: readonly CatalogTool[],
  previous: CatalogIndex | undefined,
  options: ToolIndexOptions,
): CatalogIndex {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const build = (): CatalogIndex => ({
    tools,
    byName,
    index: createToolIndex(
      tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, server: t.server })),
      options,
    ),
  });
  if (!previous) return build();
  const before = byServer(previous.tools);
  const after = byServer(tools);
  const changed = new Set<string | undefined>();
  for (const [server, list] of after) {
    const old = before.get(server);
    if (!old || old.length !== list.length || list.some((t, i) => !sameTool(old[i], t))) changed.add(server);
  }
  for (const server of before.keys()) if (!after.has(server)) changed.add(server);
  // Tools without a server cannot be replaced as a group; many changed servers: rebuild.
  if (changed.has(undefined) || changed.size > MAX_SERVERS_TO_REPLACE) return build();
  let index = previous.index;
  try {
    for (const server of changed as Set<string>) {
      const list = after.get(server) ?? [];
      index = index.replaceServer(
        server,
        list.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, server })),
      );
    }
  } catch {
    // A name moved from one changed server to another (replaced in the wrong order): build afresh.
    return build();
  }
  return { tools, byName, index };
}
