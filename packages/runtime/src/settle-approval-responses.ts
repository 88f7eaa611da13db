import type { ModelMessage } from 'ai';
import type { ApprovalLedger } from './approval-ledger.js';
import type { RuntimeEventSink } from './events.js';

/** Options of {@link settleApprovalResponses}. */
export interface SettleApprovalResponsesOptions {
  /** The ledger the requests were recorded in (`gate.ledger`). */
  ledger: ApprovalLedger;
  /** Receives a `confirm-decision` event for every rejection recorded. */
  onEvent?: RuntimeEventSink;
}

/**
 * Records the rejections among the AI SDK approval responses of the last message, before the
 * next run starts. The SDK answers a rejected call itself (an `execution-denied` result) without
 * calling the tool, so the runtime would not otherwise learn of it: recording it closes the
 * request, emits its `confirm-decision`, and makes a later approval for the same call refused.
 * Approvals need no settling: they are checked and used when the call runs.
 *
 * @returns the call ids whose rejection was recorded.
 */
export async function settleApprovalResponses(
  messages: readonly ModelMessage[],
  options: SettleApprovalResponsesOptions,
): Promise<string[]> {
  const last = messages.at(-1);
  if (last?.role !== 'tool') return [];
  const callOf = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-request') callOf.set(part.approvalId, part.toolCallId);
    }
  }
  const settled: string[] = [];
  for (const part of last.content) {
    if (part.type !== 'tool-approval-response' || part.approved) continue;
    const toolCallId = callOf.get(part.approvalId);
    if (toolCallId === undefined) continue;
    const record = await options.ledger.get(toolCallId);
    if (record?.status !== 'pending') continue;
    const reason = part.reason ?? 'the user rejected this call';
    await options.ledger.set({ ...record, status: 'rejected', reason });
    try {
      options.onEvent?.({ type: 'confirm-decision', toolCallId, approved: false, reason });
    } catch {
      // A failing client sink must not stop the run.
    }
    settled.push(toolCallId);
  }
  return settled;
}
