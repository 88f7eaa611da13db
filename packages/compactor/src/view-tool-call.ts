import { z } from 'zod';
import { defineTool } from '@aibuddy/registry';
import type { ServerToolConfig, ToolDefinition } from '@aibuddy/registry';
import { VIEW_TOOL_CALL } from './model-view.js';
import { DEFAULT_VIEW_LIMIT, MAX_VIEW_LIMIT } from './view-page.js';
import type { ViewPage, ViewRequest } from './view-page.js';

/** What `view_tool_call` needs from the host: the compactor (or anything that reads pages). */
export interface CompactorService {
  /** Reads one page of a stored raw result. */
  view(request: ViewRequest): Promise<ViewPage>;
}

declare module '@aibuddy/registry' {
  interface ToolServices {
    /** The compactor of this host; enables `view_tool_call`. */
    compactor?: CompactorService;
  }
}

/** The key of the `view_tool_call` config (in `TOOL_CONFIG_METAS` and `TOOL_NAME_MAP`). */
export const TOOL_RESULTS_CONFIG_KEY = 'tool_results';

const viewInput = z.object({
  toolCallId: z.string().describe("The id given in the compacted result's note."),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Where to start, in characters (default 0; use nextOffset of the previous page).'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_VIEW_LIMIT)
    .optional()
    .describe(`How many characters to read (default ${DEFAULT_VIEW_LIMIT}, at most ${MAX_VIEW_LIMIT}).`),
  part: z
    .enum(['output', 'input', 'model'])
    .optional()
    .describe("output (default): the raw output; input: the call's input; model: the view before compaction."),
});

/** The input of `view_tool_call`. */
export interface ViewToolCallInput {
  /** The id given in the compacted result's note. */
  toolCallId: string;
  /** Where to start, in characters (default 0). */
  offset?: number | undefined;
  /** How many characters to read (default 10,000, at most 50,000). */
  limit?: number | undefined;
  /** Which part to read (default `output`). */
  part?: 'output' | 'input' | 'model' | undefined;
}

/**
 * Creates the `view_tool_call` tool over a compactor. The task id comes from the run's execution
 * context, so a run can only read results of its own task. Exempt from compaction: it pages already.
 */
export function createViewToolCallTool(service: CompactorService): ToolDefinition<ViewToolCallInput, ViewPage> {
  return defineTool({
    name: VIEW_TOOL_CALL,
    description:
      'Read the full saved result of an earlier tool call whose result was compacted (its view ends with a note naming ' +
      'view_tool_call and the call id). Returns one page; call again with nextOffset until nextOffset is null.',
    inputSchema: viewInput,
    exemptFromCompaction: true,
    execute: (input, context) =>
      service.view({
        taskId: context.taskId,
        toolCallId: input.toolCallId,
        ...(input.offset !== undefined ? { offset: input.offset } : {}),
        ...(input.limit !== undefined ? { limit: input.limit } : {}),
        ...(input.part !== undefined ? { part: input.part } : {}),
      }),
    toModelOutput: ({ output }) => ({ type: 'json', value: { ...output } }),
  });
}

/**
 * The `tool_results` config: yields `view_tool_call` when the host injects `services.compactor`
 * (a compactor from `createCompactor`), and nothing otherwise.
 */
export const toolResultsConfig: ServerToolConfig = {
  key: TOOL_RESULTS_CONFIG_KEY,
  toolNames: [VIEW_TOOL_CALL],
  requires: { services: ['compactor'] },
  create: ({ services }) => (services.compactor ? [createViewToolCallTool(services.compactor)] : []),
  instructions: () =>
    'Large tool results are compacted in later steps; a compacted result ends with a note naming view_tool_call. ' +
    'Call view_tool_call with that id to read the full result in pages.',
};
