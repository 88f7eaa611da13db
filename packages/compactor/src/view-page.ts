import { ToolError } from '@aibuddy/registry';
import { headOf } from './model-view.js';
import type { SavedCall } from './find-call.js';
import type { StoredResult } from './result-store.js';

/** Page size of `view_tool_call` when the model gives no limit, in characters. */
export const DEFAULT_VIEW_LIMIT = 10_000;
/** Largest page `view_tool_call` returns, in characters. */
export const MAX_VIEW_LIMIT = 50_000;

/** Which part of a stored call to read. */
export type ViewPart = 'output' | 'input' | 'model';

/** A request for one page of a stored call. */
export interface ViewRequest {
  /** The task the call belongs to. */
  taskId: string | undefined;
  /** The call id. */
  toolCallId: string;
  /** Where to start, in characters (UTF-16 code units). Default 0. */
  offset?: number;
  /** How many characters at most (default 10,000, at most 50,000). */
  limit?: number;
  /** `output` (default): the raw output; `input`: the raw input; `model`: the view the model had before compaction. */
  part?: ViewPart;
}

/** One page of a stored call. Concatenating `content` over all pages gives the part byte for byte. */
export interface ViewPage {
  /** The call id. */
  toolCallId: string;
  /** The tool that produced it. */
  toolName: string;
  /** The part read. */
  part: ViewPart;
  /** Where this page starts. */
  offset: number;
  /** The total length of the part, in characters. */
  totalLength: number;
  /** Where the next page starts, or `null` at the end. */
  nextOffset: number | null;
  /** The text of this page. A string output is returned as is; anything else as indented JSON. */
  content: string;
}

/** The text `view_tool_call` pages through for one part of a record. */
export function partText(record: Pick<StoredResult, 'input' | 'output' | 'modelText'>, part: ViewPart): string {
  const value = part === 'output' ? record.output : part === 'input' ? record.input : (record.modelText ?? record.output);
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, 2) ?? 'null';
}

/** Reads one page of a stored call; a missing record or a bad range is a clear `execution` error. */
export async function readPage(
  store: {
    read(
      taskId: string | undefined,
      toolCallId: string,
    ): Promise<Pick<SavedCall, 'toolCallId' | 'toolName' | 'input' | 'output' | 'modelText'> | undefined>;
  },
  request: ViewRequest,
): Promise<ViewPage> {
  const part = request.part ?? 'output';
  const offset = request.offset ?? 0;
  const limit = Math.min(request.limit ?? DEFAULT_VIEW_LIMIT, MAX_VIEW_LIMIT);
  if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1) {
    throw new ToolError(`offset must be an integer ≥ 0 and limit an integer ≥ 1 (got offset ${offset}, limit ${limit}).`, {
      stage: 'parameters',
      toolName: 'view_tool_call',
    });
  }
  const record = await store.read(request.taskId, request.toolCallId);
  if (!record) {
    throw new ToolError(`no saved result for tool call ${JSON.stringify(request.toolCallId)} in this task.`, {
      stage: 'execution',
      toolName: 'view_tool_call',
      retryable: false,
      hint: "Use the id from a compacted result's note (or of a call of this task when the host saves every call).",
    });
  }
  const text = partText(record, part);
  if (offset > text.length) {
    throw new ToolError(`offset ${offset} is past the end (the ${part} has ${text.length} characters).`, {
      stage: 'parameters',
      toolName: 'view_tool_call',
      hint: 'Start at 0 or at the nextOffset of the previous page.',
    });
  }
  // Start after a split pair's high half only if a caller chose such an offset; pages we hand out never split one.
  let content = headOf(text.slice(offset, offset + limit + 1), limit);
  // A limit of 1 on a surrogate pair would yield nothing and never advance: return the whole pair.
  if (content.length === 0 && offset < text.length) content = text.slice(offset, offset + 2);
  const end = offset + content.length;
  return {
    toolCallId: record.toolCallId,
    toolName: record.toolName,
    part,
    offset,
    totalLength: text.length,
    nextOffset: end < text.length ? end : null,
    content,
  };
}
