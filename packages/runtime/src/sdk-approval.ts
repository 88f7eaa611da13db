import type { ModelMessage } from 'ai';

/** An AI SDK approval response found in the messages, with the request it answers. */
export interface SdkApproval {
  /** The approval id the SDK generated for the request. */
  approvalId: string;
  /** Whether the person approved. */
  approved: boolean;
  /** The person's reason, if any. */
  reason?: string;
}

/** Whether the messages hold an AI SDK `tool-approval-request` for this call. */
export function hasSdkApprovalRequest(messages: readonly ModelMessage[] | undefined, toolCallId: string): boolean {
  return (messages ?? []).some(
    (message) =>
      message.role === 'assistant' &&
      typeof message.content !== 'string' &&
      message.content.some((part) => part.type === 'tool-approval-request' && part.toolCallId === toolCallId),
  );
}

/**
 * Finds the AI SDK approval (`tool-approval-request` in an assistant message answered by a
 * `tool-approval-response` in a tool message) for one call. The last response wins, as in the SDK.
 */
export function findSdkApproval(messages: readonly ModelMessage[] | undefined, toolCallId: string): SdkApproval | undefined {
  if (!messages) return undefined;
  const approvalIds = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-request' && part.toolCallId === toolCallId) approvalIds.add(part.approvalId);
    }
  }
  if (approvalIds.size === 0) return undefined;
  let found: SdkApproval | undefined;
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-approval-response' && approvalIds.has(part.approvalId)) {
        found = {
          approvalId: part.approvalId,
          approved: part.approved,
          ...(part.reason === undefined ? {} : { reason: part.reason }),
        };
      }
    }
  }
  return found;
}
