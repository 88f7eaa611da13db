import type { CatalogTool } from '../catalog.js';
import { createToolIndex } from '../search/index.js';
import type { ToolIndex, ToolIndexEntry, ToolIndexOptions } from '../search/index.js';

/** The search index of one catalogue version, with its name lookup. */
export interface CatalogIndex {
  /** The catalogue version (array identity) this index was built for. */
  tools: readonly CatalogTool[];
  index: ToolIndex;
  byName: Map<string, CatalogTool>;
}

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
 * The index for catalogue version `tools`: derived from `previous` (only the changed servers' tools are
 * read again: `tools/list_changed`, servers that came up or went away), else built from scratch.
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
  // Tools without a server cannot be replaced as a group. However many servers changed (servers that
  // came up together), one derivation: the index itself builds afresh once most tools were replaced.
  if (changed.has(undefined)) return build();
  if (changed.size === 0) return { tools, byName, index: previous.index };
  const changes = new Map<string, ToolIndexEntry[]>();
  for (const server of changed as Set<string>) {
    changes.set(
      server,
      (after.get(server) ?? []).map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema, server })),
    );
  }
  let index: ToolIndex;
  try {
    index = previous.index.replaceServers(changes);
  } catch {
    // A tool without a usable name or a name taken twice: the full build reports it as it always does.
    return build();
  }
  return { tools, byName, index };
}
