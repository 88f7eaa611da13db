import { defineTool, ToolError } from '@aibuddy/registry';
import type { ServerToolConfig, ToolConfigContext } from '@aibuddy/registry';
import { z } from 'zod';
import type { ActiveSet } from '../active-set/active-set.js';
import type { CatalogTool, DeferredToolCatalog } from '../catalog.js';
import { ToolSearchQueryError } from '../search/index.js';
import type { ToolIndexOptions, ToolSearchHit, ToolSearchWarning } from '../search/index.js';
import { catalogIndex, type CatalogIndex } from './catalog-index.js';
import { TOOL_SEARCH_CONFIG_KEY, TOOL_SEARCH_TOOL_NAME } from './constants.js';

declare module '@aibuddy/registry' {
  interface ToolServices {
    /** The active set of this run; `tool_search` marks what it finds as discovered here. */
    activeSet?: ActiveSet;
  }
}

/** Default number of tools `tool_search` returns. */
export const DEFAULT_TOOL_SEARCH_LIMIT = 5;
/** Most tools one `tool_search` call may return. */
export const MAX_TOOL_SEARCH_LIMIT = 20;

/** Options of `createToolSearchConfig`. */
export interface ToolSearchConfigOptions {
  /** Where deferred tools come from (an `McpManager`, `staticCatalog(...)`, or `combineCatalogs(...)`). */
  catalog: DeferredToolCatalog;
  /**
   * The run's active set, marked with what each search finds. When omitted, `services.activeSet`
   * of the run is used; without either, results are returned but nothing is marked.
   */
  activeSet?: ActiveSet;
  /** Tools returned when the model gives no `limit` (default 5). */
  defaultLimit?: number;
  /**
   * How results are shown to the model (default `schemas`). `tool-reference` is for the Anthropic
   * native defer path: the model is sent `tool_reference` blocks and the API loads the referenced
   * deferred definitions itself. `@aibuddy/defer`'s `toolSearchPresentation(path)` picks it.
   * The raw output (and so the client's view and the event log) is the same either way.
   */
  presentation?: ToolSearchPresentation;
  /**
   * An AI SDK embedding model (the host's own, e.g. `openai.embedding('text-embedding-3-small')`):
   * searches fuse semantic similarity with the lexical ranking. Without it `tool_search` is lexical.
   */
  embeddingModel?: ToolIndexOptions['embeddingModel'];
  /** Where tool vectors are cached between runs (the host's data folder). */
  cacheDir?: string | undefined;
  /** Called when semantic search falls back to lexical or its cache fails (default: `console.warn`). */
  onWarning?: ((warning: ToolSearchWarning) => void) | undefined;
}

/** How `tool_search` answers the model. */
export type ToolSearchPresentation =
  /** Full schemas as JSON; the tools join the offered set at the next step (`activeTools` path). */
  | 'schemas'
  /** Anthropic `tool_reference` blocks: the API expands the deferred definitions itself (native path). */
  | 'tool-reference';

/** Anthropic `tool_reference` content for tool names (what a client-side tool search answers with). */
export function toolReferenceOutput(names: readonly string[]) {
  return {
    type: 'content' as const,
    value: names.map((toolName) => ({
      type: 'custom' as const,
      providerOptions: { anthropic: { type: 'tool-reference', toolName } },
    })),
  };
}

/** One tool in a `tool_search` result. */
export interface ToolSearchResultTool extends CatalogTool {
  /** Relevance within this result (higher is better). */
  score: number;
}

/** The output of `tool_search`. */
export interface ToolSearchResult {
  /** The query as given. */
  query: string;
  /** How it was matched. */
  mode: 'text' | 'regex';
  /** The best candidates with their full schemas, best first. */
  tools: ToolSearchResultTool[];
  /** How many deferred tools were searched. */
  searched: number;
  /** MCP servers still starting, whose tools could not be searched yet (absent when none). */
  starting?: string[];
  /**
   * Usage notes of the servers of these tools that the run notes leave out (the catalogue's
   * `serverNotes`), once per server, in the order of the tools; absent when none.
   */
  notes?: { server: string; text: string }[];
  /** What to do next, for the model. */
  note: string;
}

// Starting servers named in a note; a host with hundreds of them gets a count for the rest.
const MAX_NAMED_STARTING = 10;

/** "a, b, c" or "a, …, j and 15 more". */
function listStarting(names: readonly string[]): string {
  const named = names.slice(0, MAX_NAMED_STARTING).join(', ');
  return names.length > MAX_NAMED_STARTING ? `${named} and ${names.length - MAX_NAMED_STARTING} more` : named;
}

const inputSchema = z.object({
  query: z
    .string()
    .min(1)
    .describe(
      'What the tool should do, in words (e.g. "create a github issue", "weather forecast"), or a tool or server name. ' +
        'For a regular expression write it between slashes, e.g. "/^github__.*issue/i", or set regex to true.',
    ),
  regex: z
    .boolean()
    .optional()
    .describe('Treat query as a regular expression over tool names, descriptions, servers and parameter names.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_TOOL_SEARCH_LIMIT)
    .optional()
    .describe(`How many tools to return (default ${DEFAULT_TOOL_SEARCH_LIMIT}).`),
});

/** A `/pattern/flags` query → the pattern in the engine's form (`(?i)` for the `i` flag). */
export function parseSlashRegex(query: string): string | undefined {
  const match = /^\/(.+)\/([a-z]*)$/s.exec(query.trim());
  if (!match) return undefined;
  const flags = match[2] ?? '';
  return `${flags.includes('i') ? '(?i)' : ''}${match[1]}`;
}

/**
 * The `tool_search` tool (config key `tool_search`, tool name `tool_search`). It searches the
 * deferred tools by name, description, server and parameter names, returns the full schemas of the
 * best candidates, and marks them discovered in the run's active set, so they join the tool set
 * from the next step. A query is plain words, or a regular expression written as `/.../flags` or
 * with `regex: true` (as in Anthropic's regex tool search; a leading `(?i)` also works).
 *
 * With no deferred tools the config yields nothing, and `resolveToolSet` reports why.
 */
export function createToolSearchConfig(options: ToolSearchConfigOptions): ServerToolConfig {
  // One index (and name lookup) per catalogue version, made once per change: a search then costs the
  // engine's query time only. After list_changed the index is derived from the last one, so only the
  // changed server's tools are read again (see catalogIndex).
  let last: CatalogIndex | undefined;
  let warmed = false;
  let instructionsFor: { tools: readonly CatalogTool[]; starting: number; text: string } | undefined;
  const defaultLimit = Math.min(Math.max(1, options.defaultLimit ?? DEFAULT_TOOL_SEARCH_LIMIT), MAX_TOOL_SEARCH_LIMIT);
  const indexOptions: ToolIndexOptions = {
    embeddingModel: options.embeddingModel,
    cacheDir: options.cacheDir,
    onWarning: options.onWarning,
  };
  // Each result repeats the notes of its servers rather than remembering what an earlier result
  // showed: that result may have been compacted away, and a search is the only time they cost.
  const notesFor = (found: readonly CatalogTool[]) => {
    const notes: { server: string; text: string }[] = [];
    const seen = new Set<string>();
    for (const { server } of found) {
      if (server === undefined || seen.has(server)) continue;
      seen.add(server);
      const text = options.catalog.serverNotes?.(server);
      if (text) notes.push({ server, text });
    }
    return notes;
  };
  const indexOf = (tools: readonly CatalogTool[]): CatalogIndex => {
    if (last?.tools !== tools) last = catalogIndex(tools, last, indexOptions);
    return last;
  };

  return {
    key: TOOL_SEARCH_CONFIG_KEY,
    toolNames: [TOOL_SEARCH_TOOL_NAME],
    core: true,
    requires: {
      preconditions: [
        {
          name: 'deferred-tools',
          // Servers still starting will most likely bring deferred tools; the tool must be there for them
          // (a tool set cannot gain tool_search later without a new presentation).
          check: () =>
            options.catalog.deferredTools().length > 0 || (options.catalog.starting?.().length ?? 0) > 0
              ? true
              : 'no deferred tools in this run: every tool is already in the tool set',
        },
      ],
    },
    create(context: ToolConfigContext) {
      const activeSet = options.activeSet ?? context.services.activeSet;
      // The first index is built with the first tool set, not at the first search: a catalogue's index
      // costs start-up time once instead of one model step (10,000 tools: a few hundred ms). After a
      // change (the tool set is resolved again in a step) it waits for a search: servers coming up one
      // by one would otherwise cost a derivation per step, and one search derives for all of them.
      // With an embedding model it is derived at once: the new tools' vectors are then computed while
      // the model thinks, instead of making the next search wait for them.
      if (last === undefined || options.embeddingModel) indexOf(options.catalog.deferredTools());
      // The first index with tools is also searched a few times here (ToolIndex.warmUp), so that V8
      // compiles the ranking code during start-up: in a fresh process that compilation otherwise
      // lands in the first searches of a large catalogue (~30 ms of CPU at 10,000 tools).
      if (!warmed && last && last.index.size > 0) {
        warmed = true;
        last.index.warmUp();
      }
      return [
        defineTool({
          name: TOOL_SEARCH_TOOL_NAME,
          description:
            'Search the deferred tools (for example tools of MCP servers) that are not loaded yet, and load the best matches. ' +
            'Returns each match with its full input schema; the tools you find can be called from your next step. ' +
            'Query in words, by tool or server name, or with a regular expression as /pattern/flags.',
          inputSchema,
          disposable: false,
          ...(options.presentation === 'tool-reference'
            ? {
                toModelOutput: ({ output }: { output: ToolSearchResult }) =>
                  output.tools.length > 0 ? toolReferenceOutput(output.tools.map((t) => t.name)) : output.note,
              }
            : {}),
          execute: async ({ query, regex, limit }): Promise<ToolSearchResult> => {
            const tools = options.catalog.deferredTools();
            const slash = regex ? undefined : parseSlashRegex(query);
            const mode = regex || slash !== undefined ? 'regex' : 'text';
            const pattern = slash ?? query;
            const { index, byName } = indexOf(tools);
            let hits: ToolSearchHit[];
            try {
              // With an embedding model: fused with semantic similarity (lexical when the query cannot be embedded).
              hits = await index.searchAsync(pattern, { limit: limit ?? defaultLimit, regex: mode === 'regex' });
            } catch (error) {
              if (ToolSearchQueryError.isInstance(error)) {
                throw new ToolError(error.message, { stage: 'parameters', toolName: TOOL_SEARCH_TOOL_NAME, cause: error });
              }
              throw error;
            }
            const found: ToolSearchResultTool[] = [];
            for (const hit of hits) {
              const tool = byName.get(hit.name);
              if (tool) found.push({ ...tool, score: Math.round(hit.score * 1000) / 1000 });
            }
            activeSet?.markDiscovered(found.map((t) => t.name));
            const notes = notesFor(found);
            const starting = [...(options.catalog.starting?.() ?? [])];
            const note =
              found.length > 0
                ? 'These tools are loaded: call them by name from your next step.'
                : `No deferred tool matched. Try other words, a tool or server name, or a broader ${mode === 'regex' ? 'pattern' : 'query'}.`;
            return {
              query,
              mode,
              tools: found,
              searched: tools.length,
              ...(starting.length > 0 ? { starting } : {}),
              ...(notes.length > 0 ? { notes } : {}),
              note:
                starting.length > 0
                  ? `${note} MCP servers still starting: ${listStarting(starting)}; their tools are not searchable yet, so search again in a moment if nothing here fits.`
                  : note,
            };
          },
        }),
      ];
    },
    instructions() {
      // Once per catalogue version: a tool set may be resolved again at any step, and a pass over
      // 10,000 tools there would make per-step work grow with the catalogue.
      const tools = options.catalog.deferredTools();
      const starting = options.catalog.starting?.() ?? [];
      if (instructionsFor?.tools !== tools || instructionsFor.starting !== starting.length) {
        const servers = new Map<string, number>();
        for (const t of tools) servers.set(t.server ?? 'other', (servers.get(t.server ?? 'other') ?? 0) + 1);
        const list = [...servers].map(([s, n]) => `${s} (${n})`).join(', ');
        const withNotes = [...servers.keys()].some((s) => options.catalog.serverNotes?.(s));
        instructionsFor = {
          tools,
          starting: starting.length,
          text:
            `${tools.length} more tools are deferred: their schemas are not loaded${list ? ` (${list})` : ''}. ` +
            (starting.length > 0
              ? `MCP servers still starting: ${listStarting(starting)}; their tools join the search as they come up. `
              : '') +
            'When you need a capability you do not see among your tools, call tool_search first; the tools it returns can be called from the next step.' +
            (withNotes ? ' The usage notes of their servers come with them: read them before you call.' : ''),
        };
      }
      return instructionsFor.text;
    },
  };
}
