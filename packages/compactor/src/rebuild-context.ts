import type { AssistantModelMessage, ModelMessage, ToolModelMessage } from 'ai';
import type { ModelOutput } from '@aibuddy/registry';
import type { CompactableTool, CompactionOutcome, Compactor } from './compactor-types.js';
import { DEFAULT_INTERACTION_NORMALIZERS } from './interactions.js';
import type { InteractionNormalizer, MessageToolOutput } from './interactions.js';
import { VIEW_TOOL_CALL } from './model-view.js';

/** What a repaired (interrupted) call's result says by default. */
export const INTERRUPTED_RESULT_TEXT =
  'This call was interrupted before it returned a result (the run was stopped). Its effect is unknown: ' +
  'check the current state before calling it again.';

/** Options of {@link rebuildContext}. */
export interface RebuildContextOptions {
  /** Replaces large results by their compact form with the recovery pointer. Without it, results stay as they are. */
  compactor?: Compactor;
  /** The task the history belongs to (where stored results are looked up). */
  taskId?: string;
  /** Tool definitions by name, so that results not seen by the compactor yet use their tools' hooks. */
  tools?: Readonly<Record<string, CompactableTool>> | ((toolName: string) => CompactableTool | undefined);
  /** Interaction tools whose completed exchanges become user text (default: `ask_user_question`, `confirm`). */
  interactions?: Readonly<Record<string, InteractionNormalizer>>;
  /** The result text given to calls left without a result. */
  interruptedResultText?: string;
  /** Aborts compaction work started by the rebuild. */
  signal?: AbortSignal;
}

type AssistantPart = Exclude<AssistantModelMessage['content'], string>[number];
type ToolPart = ToolModelMessage['content'][number];
type ToolCallPart = Extract<AssistantPart, { type: 'tool-call' }>;
type ToolResultPart = Extract<ToolPart, { type: 'tool-result' }>;

const isLocalCall = (part: AssistantPart): part is ToolCallPart => part.type === 'tool-call' && part.providerExecuted !== true;

/**
 * Rebuilds a history (`ModelMessage[]`) for the next step or a resumed run, without mutating it:
 *
 * 1. completed interaction exchanges (`ask_user_question`, `confirm`) become `role: 'user'` text
 *    carrying the user's decision, in place of the tool call and its result;
 * 2. tool calls left without a result by an interruption get an error result saying so, placed
 *    right after their assistant message; results that drifted away from their call are moved
 *    back next to it; results without a call are removed — so providers accept the history;
 * 3. with a compactor, results are replaced by their compact form with the `view_tool_call`
 *    pointer (results the compactor has not seen yet are compacted now, by the same rules);
 *    results of disposable tools whose hook chose `drop` are left out once an assistant message
 *    follows them (they have been used).
 *
 * Results are paired with calls by id, so ids must be unique in the history: a later call that
 * reuses an id is taken for a repeat of the first and left out with its result. When a server
 * reuses ids, wrap its model with `withUniqueToolCallIds` (`@aibuddy/runtime`), as the reference
 * host does.
 *
 * Use it for a resumed run, and per step with `prepareStep: async ({ messages }) =>
 * ({ messages: await rebuildContext(messages, { compactor, taskId }) })`.
 */
export async function rebuildContext(
  messages: readonly ModelMessage[],
  options: RebuildContextOptions = {},
): Promise<ModelMessage[]> {
  const interactions = options.interactions ?? DEFAULT_INTERACTION_NORMALIZERS;
  const interruptedText = options.interruptedResultText ?? INTERRUPTED_RESULT_TEXT;
  const lookup =
    typeof options.tools === 'function'
      ? options.tools
      : (name: string) => (options.tools as Record<string, CompactableTool> | undefined)?.[name];

  // The first result of every call, wherever it sits: a result that drifted away from its call
  // (after a resume, a merge) is moved back to right after the call's assistant message.
  const firstResult = new Map<string, ToolResultPart>();
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result' && !firstResult.has(part.toolCallId)) firstResult.set(part.toolCallId, part);
    }
  }
  const placed = new Set<string>();
  let lastAssistant = -1;
  messages.forEach((m, index) => {
    if (m.role === 'assistant') lastAssistant = index;
  });

  const out: ModelMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== 'assistant') {
      if (message.role === 'tool') {
        // Results are placed with their calls below; what is left here answers nothing (or was moved).
        const kept = message.content.filter((part) => part.type !== 'tool-result');
        if (kept.length > 0) out.push({ ...message, content: kept });
        continue;
      }
      out.push(message);
      continue;
    }
    if (typeof message.content === 'string') {
      out.push(message);
      continue;
    }
    const calls = message.content.filter(isLocalCall).filter((call) => !placed.has(call.toolCallId));
    // The tool messages right after this assistant message (their non-result parts stay with it).
    const answers: ToolModelMessage[] = [];
    let j = i + 1;
    while (j < messages.length && messages[j]!.role === 'tool') answers.push(messages[j++] as ToolModelMessage);
    i = j - 1;

    const results = new Map<string, ToolResultPart>();
    for (const call of calls) {
      const result = firstResult.get(call.toolCallId);
      placed.add(call.toolCallId);
      if (result) results.set(call.toolCallId, result);
    }
    const otherParts: ToolPart[] = [];
    const approved = new Set<string>();
    for (const answer of answers) {
      for (const part of answer.content) {
        if (part.type === 'tool-result') continue;
        otherParts.push(part);
        if (part.type === 'tool-approval-response') approved.add(part.approvalId);
      }
    }
    const awaitingExecution = new Set(
      message.content
        .filter((p): p is Extract<AssistantPart, { type: 'tool-approval-request' }> => p.type === 'tool-approval-request')
        .filter((p) => approved.has(p.approvalId))
        .map((p) => p.toolCallId),
    );

    const userTexts: string[] = [];
    const normalized = new Set<string>();
    for (const call of calls) {
      const normalize = interactions[call.toolName];
      const result = results.get(call.toolCallId);
      if (!normalize || !result) continue;
      const text = normalize({ toolName: call.toolName, input: call.input }, result.output);
      if (text === undefined) continue;
      normalized.add(call.toolCallId);
      userTexts.push(text);
    }

    const toolContent: ToolPart[] = [];
    for (const call of calls) {
      if (normalized.has(call.toolCallId)) continue;
      const result = results.get(call.toolCallId);
      if (result) {
        // A result counts as used once an assistant message follows it: only then may `drop` apply.
        toolContent.push(await compactedPart(result, call, options, lookup, lastAssistant > i));
      } else if (!awaitingExecution.has(call.toolCallId)) {
        toolContent.push({
          type: 'tool-result',
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          output: { type: 'error-text', value: interruptedText },
        });
      }
    }
    toolContent.push(
      ...otherParts.filter((p) => p.type !== 'tool-approval-response' || !normalizedApproval(message, p, normalized)),
    );

    // Results first (compacting one also decides its call's input), then the calls with their inputs.
    const kept = new Set(calls.map((c) => c.toolCallId));
    const assistantContent: AssistantPart[] = [];
    for (const part of message.content) {
      if (part.type === 'tool-call' && part.providerExecuted !== true && !kept.has(part.toolCallId)) continue; // a repeated id
      if ((part.type === 'tool-call' || part.type === 'tool-approval-request') && normalized.has(part.toolCallId)) continue;
      assistantContent.push(isLocalCall(part) ? await compactedCall(part, options) : part);
    }
    if (assistantContent.length > 0) out.push({ ...message, content: assistantContent });
    if (toolContent.length > 0) out.push({ role: 'tool', content: toolContent });
    for (const text of userTexts) out.push({ role: 'user', content: [{ type: 'text', text }] });
  }
  return out;
}

/** The call with its compact input, when its tool's hook gave one (the raw input stays on disk). */
async function compactedCall(call: ToolCallPart, options: RebuildContextOptions): Promise<ToolCallPart> {
  const compactor = options.compactor;
  if (!compactor || call.toolName === VIEW_TOOL_CALL) return call;
  const seen = await compactor.outcomeOf(options.taskId, call.toolCallId);
  const compact = seen
    ? seen.compactedInput
    : (await compactor.store.read(options.taskId, call.toolCallId).catch(() => undefined))?.compactedInput;
  return compact === undefined ? call : { ...call, input: compact };
}

function normalizedApproval(message: AssistantModelMessage, part: ToolPart, normalized: Set<string>): boolean {
  if (part.type !== 'tool-approval-response' || typeof message.content === 'string') return false;
  return message.content.some(
    (p) => p.type === 'tool-approval-request' && p.approvalId === part.approvalId && normalized.has(p.toolCallId),
  );
}

async function compactedPart(
  result: ToolResultPart,
  call: ToolCallPart,
  options: RebuildContextOptions,
  lookup: (toolName: string) => CompactableTool | undefined,
  used: boolean,
): Promise<ToolResultPart> {
  const compactor = options.compactor;
  if (!compactor || result.toolName === VIEW_TOOL_CALL) return result;
  const output = result.output as MessageToolOutput;
  if (output.type !== 'text' && output.type !== 'json' && output.type !== 'content') return result;
  const taskId = options.taskId;
  const seen = await compactor.outcomeOf(taskId, result.toolCallId);
  const apply = (outcome: CompactionOutcome): ToolResultPart =>
    outcome.kind === 'compacted' && (outcome.strategy !== 'drop' || used)
      ? { ...result, output: outcome.model as MessageToolOutput }
      : result;
  if (seen) return apply(seen);
  const stored = await compactor.store.read(taskId, result.toolCallId).catch(() => undefined);
  if (stored) return { ...result, output: stored.compacted as MessageToolOutput };
  const outcome = await compactor.compact({
    toolCallId: result.toolCallId,
    toolName: result.toolName,
    definition: lookup(result.toolName),
    input: call.input,
    output: output.type === 'content' ? output.value : output.value,
    modelOutput: output as ModelOutput,
    taskId,
    signal: options.signal,
  });
  return apply(outcome);
}
