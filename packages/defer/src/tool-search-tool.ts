import { parseSlashRegex, TOOL_SEARCH_TOOL_NAME, ToolSearchQueryError } from '@aibuddy/discovery';
import type { ActiveSet } from '@aibuddy/discovery';
import { ToolError } from '@aibuddy/registry';
import { asSchema, jsonSchema, tool } from 'ai';
import type { Tool, ToolSet } from 'ai';
import type { ToolSearchEngine } from './tool-index.js';

/** The default number of tools one search returns. */
export const DEFAULT_SEARCH_LIMIT = 5;

/** The input of `tool_search`. */
export interface ToolSearchInput {
  /** Words describing the capability needed, a tool or server name, or `/regex/flags`. */
  query: string;
  /** How many tools to return (1-20, default 5). */
  limit?: number;
}

/** One tool `tool_search` found. */
export interface FoundTool {
  /** The name to call it by. */
  name: string;
  /** What it does. */
  description: string;
  /** Its full input JSON Schema. */
  inputSchema: unknown;
}

/** The raw output of `tool_search` (same `tools[].name` shape as `@aibuddy/discovery`'s `tool_search`). */
export interface ToolSearchOutput {
  /** The query as given. */
  query: string;
  /** The tools found, best first. */
  tools: FoundTool[];
}

/** How `tool_search` answers the model. */
export type ToolSearchPresentation =
  /** Full schemas as JSON; the tools join the offered set at the next step (`activeTools` path). */
  | 'schemas'
  /** Anthropic `tool_reference` blocks: the API loads the deferred definitions itself (native path). */
  | 'tool-reference';

/** Options of {@link createToolSearchTool}. */
export interface CreateToolSearchToolOptions {
  /** The deferred tools that can be found, by name (the full AI SDK tools). */
  deferred: ToolSet;
  /** The search engine over them. */
  index: ToolSearchEngine;
  /** The run's active set: what is found is marked discovered there. */
  activeSet: Pick<ActiveSet, 'markDiscovered'>;
  /** How the result is presented to the model. */
  presentation: ToolSearchPresentation;
  /** Default number of results (default 5). */
  limit?: number;
}

async function schemaOf(t: Tool): Promise<unknown> {
  try {
    return await asSchema(t.inputSchema).jsonSchema;
  } catch {
    return { type: 'object' };
  }
}

const inputJsonSchema = {
  type: 'object',
  properties: {
    query: {
      type: 'string',
      description:
        'What you need to do, in a few words (for example "create a github issue"), a tool or server name, or a regular expression written as /pattern/flags.',
    },
    limit: { type: 'integer', minimum: 1, maximum: 20, description: 'How many tools to return (default 5).' },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

/** Anthropic `tool_reference` content for tool names (what a client-side tool search answers with). */
export function toolReferenceOutput(names: readonly string[]) {
  return {
    type: 'content' as const,
    value: names.map((toolName) => ({ type: 'custom' as const, providerOptions: { anthropic: { type: 'tool-reference', toolName } } })),
  };
}

/**
 * Creates `tool_search` for hosts that do not bring `@aibuddy/discovery`'s own: searches the deferred
 * tools with the discovery engine, marks what it finds in the run's active set, and answers with full
 * schemas (`activeTools` path) or with Anthropic `tool_reference` blocks (Anthropic native path, where
 * the API expands the referenced deferred definitions itself).
 */
export function createToolSearchTool(options: CreateToolSearchToolOptions): Tool<ToolSearchInput, ToolSearchOutput> {
  const defaultLimit = options.limit ?? DEFAULT_SEARCH_LIMIT;
  const count = Object.keys(options.deferred).length;
  return tool<ToolSearchInput, ToolSearchOutput>({
    description:
      `Searches ${count} more tools that are not loaded yet (for example tools of MCP servers) and loads the best matches. ` +
      'Call it whenever no loaded tool fits the task; the tools it finds can be called from your next step.',
    inputSchema: jsonSchema<ToolSearchInput>(inputJsonSchema as never),
    execute: async ({ query, limit }) => {
      if (typeof query !== 'string' || query.trim() === '') {
        throw new ToolError('"query" must be a non-empty string.', { stage: 'parameters', toolName: TOOL_SEARCH_TOOL_NAME });
      }
      const n = Math.max(1, Math.min(20, Math.floor(limit ?? defaultLimit)));
      const pattern = parseSlashRegex(query);
      let hits;
      try {
        hits = pattern === undefined ? options.index.search(query, { limit: n }) : options.index.search(pattern, { limit: n, regex: true });
      } catch (error) {
        if (ToolSearchQueryError.isInstance(error)) {
          throw new ToolError(error.message, { stage: 'parameters', toolName: TOOL_SEARCH_TOOL_NAME, cause: error });
        }
        throw error;
      }
      const found: FoundTool[] = [];
      for (const hit of hits) {
        const t = options.deferred[hit.name];
        if (t) found.push({ name: hit.name, description: t.description ?? '', inputSchema: await schemaOf(t) });
      }
      options.activeSet.markDiscovered(found.map((f) => f.name));
      return { query, tools: found };
    },
    toModelOutput: ({ output }) => {
      if (output.tools.length === 0) {
        return { type: 'text', value: `No tool matched "${output.query}". Try other words, a tool or server name, or a /regex/.` };
      }
      if (options.presentation === 'tool-reference') return toolReferenceOutput(output.tools.map((f) => f.name));
      return {
        type: 'json',
        value: { tools: output.tools, note: 'These tools are loaded: call them by name from your next step.' } as never,
      };
    },
  });
}
