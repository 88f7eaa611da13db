import type { ModelMessage } from 'ai';
import { ToolError } from '@aibuddy/registry';
import type { ImpactAssessment } from '@aibuddy/registry';
import type { ApprovalLedger } from './approval-ledger.js';
import type { AuthorizationDecision, AuthorizationRequest } from './ai-tools-types.js';
import type { RuntimeEvent } from './events.js';
import { inputDigest } from './input-digest.js';
import { findSdkApproval } from './sdk-approval.js';
import { abortReason, raceAbort } from './abort.js';

/** What the authorization step decided for one high-impact call. */
export type AuthorizationOutcome = { approved: true } | { approved: false; reason: string };

/** Everything the authorization step of one call needs. */
export interface AuthorizeCallArgs {
  assessment: ImpactAssessment;
  toolCallId: string;
  toolName: string;
  /** The validated input. */
  input: unknown;
  signal: AbortSignal;
  /** The messages the AI SDK passed to `execute` (where its approval responses live). */
  messages: readonly ModelMessage[] | undefined;
  /** Asks the host while the call waits; absent when no one can be asked. */
  authorize: ((request: AuthorizationRequest, signal: AbortSignal) => Promise<AuthorizationDecision>) | undefined;
  ledger: ApprovalLedger;
  emit: (event: RuntimeEvent) => void;
}

function refuse(toolName: string, message: string, cause?: unknown): ToolError {
  return new ToolError(message, {
    stage: 'authorization',
    toolName,
    retryable: false,
    hint: 'Nothing ran. Do not retry this call on your own; tell the user what you wanted to do and ask how to proceed.',
    ...(cause === undefined ? {} : { cause }),
  });
}

function short(digest: string): string {
  return digest.slice(0, 12);
}

/**
 * Records an AI SDK approval request for a high-impact call (called from the tool's
 * `needsApproval`) and tells the client. An existing record is never replaced: the SDK calls
 * `needsApproval` again when an approval comes back, with the input found in the messages, and
 * that input must not become the one the person is taken to have seen.
 */
export async function recordSdkApprovalRequest(
  args: Omit<AuthorizeCallArgs, 'signal' | 'messages' | 'authorize'>,
): Promise<boolean> {
  const digest = inputDigest(args.input);
  const existing = await args.ledger.get(args.toolCallId);
  if (!existing) {
    await args.ledger.set({ toolCallId: args.toolCallId, toolName: args.toolName, inputDigest: digest, status: 'pending' });
    args.emit({
      type: 'confirm-request',
      toolCallId: args.toolCallId,
      toolName: args.toolName,
      ...pick(args.assessment),
      inputDigest: digest,
      input: args.input,
    });
  }
  return true;
}

function pick(assessment: ImpactAssessment): ImpactAssessment {
  return { target: assessment.target, scope: assessment.scope, impact: assessment.impact };
}

/**
 * Marks still-open requests as stopped (a user stop while the person had not answered yet), so
 * that an approval arriving afterwards is refused instead of starting the call.
 */
export async function stopOpenRequests(
  toolCallIds: Iterable<string>,
  ledger: ApprovalLedger,
  emit: (event: RuntimeEvent) => void,
  reason: string,
): Promise<void> {
  for (const toolCallId of toolCallIds) {
    const record = await ledger.get(toolCallId);
    if (record?.status !== 'pending') continue;
    await ledger.set({ ...record, status: 'stopped', reason });
    emit({ type: 'confirm-decision', toolCallId, approved: false, reason });
  }
}

/**
 * The authorization stage of one high-impact call. Resolves to the person's decision; throws a
 * `ToolError` (stage `authorization`) when the call must not run and no decision of a person
 * exists for it: no one to ask, a stop during the wait, or an approval that belongs to another
 * call or another input.
 */
export async function authorizeCall(args: AuthorizeCallArgs): Promise<AuthorizationOutcome> {
  const { toolCallId, toolName, ledger, emit } = args;
  const digest = inputDigest(args.input);

  // An approval given through the AI SDK (a `tool-approval-response` in the messages).
  const sdkApproval = findSdkApproval(args.messages, toolCallId);
  if (sdkApproval) {
    const record = await ledger.get(toolCallId);
    const deny = async (message: string): Promise<never> => {
      emit({ type: 'confirm-decision', toolCallId, approved: false, reason: message });
      throw refuse(toolName, message);
    };
    if (!record) {
      return deny(
        'an approval arrived for a call this runtime never asked about, so it cannot be checked against what the person saw; it is refused.',
      );
    }
    if (record.status === 'used')
      return deny('this approval was already used once; a decision is never reused for another execution.');
    if (record.status === 'stopped')
      return deny('the run was stopped while this confirmation was open; the late approval is refused.');
    if (record.status === 'rejected') return deny('the person already rejected this call; a later approval for it is refused.');
    if (record.toolName !== toolName) {
      return deny(`the approval was given for the tool ${record.toolName}, not ${toolName}; it is refused.`);
    }
    if (record.inputDigest !== digest) {
      return deny(
        `the approval was given for a different input (digest ${short(record.inputDigest)}…) than this call has (digest ${short(digest)}…); it is refused.`,
      );
    }
    if (!sdkApproval.approved) {
      const reason = sdkApproval.reason ?? 'the user rejected this call';
      await ledger.set({ ...record, status: 'rejected', reason });
      emit({ type: 'confirm-decision', toolCallId, approved: false, reason });
      return { approved: false, reason };
    }
    if (!(await ledger.compareAndSet({ ...record, status: 'used' }, 'pending'))) {
      return deny('this approval was already used once; a decision is never reused for another execution.');
    }
    emit({ type: 'confirm-decision', toolCallId, approved: true });
    return { approved: true };
  }

  // Ask the host while the call waits.
  if (!args.authorize) {
    throw new ToolError(`this call is high impact (${args.assessment.impact}) and this host has no way to ask a person.`, {
      stage: 'authorization',
      toolName,
      retryable: false,
    });
  }
  const request: AuthorizationRequest = {
    ...pick(args.assessment),
    toolCallId,
    toolName,
    input: args.input,
    inputDigest: digest,
  };
  await ledger.set({ toolCallId, toolName, inputDigest: digest, status: 'pending' });
  emit({ type: 'confirm-request', toolCallId, toolName, ...pick(args.assessment), inputDigest: digest, input: args.input });

  let decision: AuthorizationDecision;
  try {
    decision = await raceAbort(
      Promise.resolve().then(() => args.authorize!(request, args.signal)),
      args.signal,
    );
  } catch (error) {
    if (args.signal.aborted) {
      const reason = `stopped while waiting for the user: ${abortReason(args.signal)}`;
      await ledger.set({ toolCallId, toolName, inputDigest: digest, status: 'stopped', reason });
      emit({ type: 'confirm-decision', toolCallId, approved: false, reason });
      throw new ToolError(`confirmation not given: ${abortReason(args.signal)}. Nothing ran.`, {
        stage: 'authorization',
        toolName,
        retryable: false,
        cause: error,
      });
    }
    const reason = `confirmation failed: ${error instanceof Error ? error.message : String(error)}`;
    await ledger.set({ toolCallId, toolName, inputDigest: digest, status: 'rejected', reason });
    emit({ type: 'confirm-decision', toolCallId, approved: false, reason });
    throw refuse(toolName, `${reason}.`, error);
  }

  // A decision carrying a binding must carry this call's: a stored approval replayed for
  // another call or another input is refused, never silently reused.
  if (
    (decision.toolCallId !== undefined && decision.toolCallId !== toolCallId) ||
    (decision.inputDigest !== undefined && decision.inputDigest !== digest)
  ) {
    const reason =
      decision.toolCallId !== undefined && decision.toolCallId !== toolCallId
        ? `the decision received was given for another call (${decision.toolCallId}), not this one; it is refused.`
        : `the decision received was given for a different input (digest ${short(decision.inputDigest ?? '')}…) than this call has (digest ${short(digest)}…); it is refused.`;
    await ledger.set({ toolCallId, toolName, inputDigest: digest, status: 'rejected', reason });
    emit({ type: 'confirm-decision', toolCallId, approved: false, reason });
    throw refuse(toolName, reason);
  }

  if (!decision.approved) {
    const reason = decision.reason ?? 'the user rejected this call';
    await ledger.set({ toolCallId, toolName, inputDigest: digest, status: 'rejected', reason });
    emit({ type: 'confirm-decision', toolCallId, approved: false, reason });
    return { approved: false, reason };
  }
  await ledger.set({ toolCallId, toolName, inputDigest: digest, status: 'used' });
  emit({
    type: 'confirm-decision',
    toolCallId,
    approved: true,
    ...(decision.reason === undefined ? {} : { reason: decision.reason }),
  });
  return { approved: true };
}
