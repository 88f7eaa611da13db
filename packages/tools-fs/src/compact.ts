import { createHash } from 'node:crypto';
import { cutHeadTail } from '@aibuddy/registry';
import type { CompactDecision, CompactHookArgs, JsonValue } from '@aibuddy/registry';

/** Input fields that carry whole file text, by tool: the part of an input worth compacting. */
const TEXT_FIELDS: Record<string, readonly string[]> = {
  write_file: ['content'],
  edit_file: ['new_text', 'old_text'],
};
/** Lines kept from each end of a compacted text field. */
const EDGE_LINES = 5;
/** Longest line kept in a compacted text field's head or tail. */
const EDGE_LINE_CHARS = 200;

// cutHeadTail never splits a surrogate pair: half of one is invalid text for a provider.
const clipLine = (line: string) =>
  line.length > EDGE_LINE_CHARS ? `${cutHeadTail(line, { headChars: EDGE_LINE_CHARS, tailChars: 0 }).head}…` : line;

/**
 * The compact form of one long text field: its size, SHA-256, first and last lines and how to
 * get it back. The file on disk holds the text too, so the model can re-read it with read_file.
 */
export function compactTextField(toolName: string, toolCallId: string, field: string, text: string, path: unknown): string {
  const lines = text.split('\n');
  const digest = createHash('sha256').update(text, 'utf8').digest('hex');
  const head = lines.slice(0, EDGE_LINES).map(clipLine);
  const tail = lines.length > EDGE_LINES * 2 ? lines.slice(-EDGE_LINES).map(clipLine) : lines.slice(EDGE_LINES).map(clipLine);
  const omitted = Math.max(0, lines.length - head.length - tail.length);
  const where = typeof path === 'string' ? ` (now in ${path}: read_file shows it)` : '';
  return [
    `[compacted input: ${field} of this ${toolName} call had ${text.length} characters, ${lines.length} lines, sha256 ${digest}${where}. ` +
      `The full ${field} is saved: call view_tool_call with {"toolCallId":${JSON.stringify(toolCallId)},"part":"input"}.]`,
    ...head,
    ...(omitted > 0 ? [`[... ${omitted} lines omitted ...]`] : []),
    ...tail,
  ].join('\n');
}

/** The group's compact form of a large write or edit input (only when the input reached the threshold). */
function compactInput(args: CompactHookArgs): { [key: string]: JsonValue } | undefined {
  const fields = TEXT_FIELDS[args.toolName];
  if (!fields || args.inputTokens === undefined || args.inputTokens < (args.threshold ?? 0)) return undefined;
  if (typeof args.input !== 'object' || args.input === null) return undefined;
  const input = args.input as Record<string, JsonValue>;
  const budgetChars = args.targetTokens * 4;
  let changed = false;
  const out: { [key: string]: JsonValue } = { ...input };
  for (const field of fields) {
    const value = input[field];
    if (typeof value !== 'string' || value.length <= budgetChars) continue;
    out[field] = compactTextField(args.toolName, args.toolCallId, field, value, input.path);
    changed = true;
  }
  return changed ? out : undefined;
}

const RECOVERY: Record<string, string> = {
  read_file: 'call read_file with offset=<first omitted line> to see them again',
  grep: 'run grep again with a narrower pattern, path or glob',
  glob: 'run glob again with a narrower pattern or path',
  ls: 'list a subfolder, or use glob',
};

/**
 * The filesystem group's compaction policy: structured trimming, never a summary. File text and
 * listings are exact data a model must not get paraphrased; keeping the head and tail lines and
 * saying which lines were dropped (and how to get them back) loses nothing that cannot be re-read.
 * Write and edit results are small and kept; their large inputs (a whole file's `content`, an
 * edit's `new_text`) are replaced in later steps by size, digest, first and last lines and a
 * recovery note, since the text is on disk and saved with the call.
 */
export function compactFilesystemResult(args: CompactHookArgs): CompactDecision {
  const input = compactInput(args);
  const decision = compactFilesystemOutput(args);
  return input ? { ...decision, input } : decision;
}

function compactFilesystemOutput(args: CompactHookArgs): CompactDecision {
  if (args.tokens <= args.targetTokens) return { strategy: 'keep' };
  if (args.toolName === 'write_file') return { strategy: 'keep' };
  // About four characters per token; the note itself needs a little room.
  const budget = Math.max(400, args.targetTokens * 4 - 300);
  const lines = args.modelText.split('\n');
  const headBudget = Math.floor(budget * 0.7);
  let headChars = 0;
  let head = 0;
  while (head < lines.length && headChars + lines[head]!.length + 1 <= headBudget) headChars += lines[head++]!.length + 1;
  let tailChars = 0;
  let tail = 0;
  while (tail < lines.length - head && tailChars + lines[lines.length - 1 - tail]!.length + 1 <= budget - headChars) {
    tailChars += lines[lines.length - 1 - tail]!.length + 1;
    tail += 1;
  }
  const omitted = lines.length - head - tail;
  if (omitted <= 0) return { strategy: 'keep' };
  const firstOmitted = lines[head]!;
  const numbered = /^\s*(\d+)\t/.exec(firstOmitted);
  const recovery = RECOVERY[args.toolName] ?? `call ${args.toolName} again to see them`;
  const where = numbered && args.toolName !== 'grep' ? ` (file lines from ${numbered[1]} on)` : '';
  const note = `[compacted: ${omitted} lines of this ${args.toolName} result omitted here${where}; ${recovery.replace('<first omitted line>', numbered?.[1] ?? '<line>')}.]`;
  return {
    strategy: 'trim',
    modelOutput: [...lines.slice(0, head), note, ...lines.slice(lines.length - tail)].join('\n'),
  };
}
