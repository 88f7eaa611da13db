import type { AuthorizationDecision, AuthorizationRequest, ConfirmRequestEvent } from '@aibuddy/runtime';

/**
 * A confirmation the browser has to answer: the runtime's request (tool, target, scope, impact,
 * the whole input and its digest) and the task it belongs to. An answer must name the digest, so it cannot be
 * replayed for other input.
 */
export type PendingConfirmation = Omit<ConfirmRequestEvent, 'type'> & { taskId: string };

/** Why an answer was not accepted. */
export type AnswerRefusal = 'no-such-request' | 'digest-mismatch';

interface Waiter {
  request: PendingConfirmation;
  resolve: (decision: AuthorizationDecision) => void;
}

/**
 * The confirmations waiting for a person, keyed by call id. A request lives here until it is
 * answered or its run stops, so a reloaded page (or a second tab) can show it again; an answer must
 * name the call and its input digest, so one dialog can never answer for another call.
 */
export class PendingConfirmations {
  private readonly waiting = new Map<string, Waiter>();

  /** Registers a request and resolves with the person's decision (or a rejection when `signal` aborts). */
  wait(taskId: string, request: AuthorizationRequest, signal: AbortSignal): Promise<AuthorizationDecision> {
    const pending: PendingConfirmation = {
      taskId,
      toolCallId: request.toolCallId,
      toolName: request.toolName,
      target: request.target,
      scope: request.scope,
      impact: request.impact,
      inputDigest: request.inputDigest,
      input: request.input,
    };
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.delete(request.toolCallId);
        reject(signal.reason instanceof Error ? signal.reason : new Error('the run was stopped'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(request.toolCallId, {
        request: pending,
        resolve: (decision) => {
          signal.removeEventListener('abort', onAbort);
          resolve(decision);
        },
      });
    });
  }

  /** Every request still waiting (optionally of one task), oldest first. */
  list(taskId?: string): PendingConfirmation[] {
    return [...this.waiting.values()].map((w) => w.request).filter((r) => taskId === undefined || r.taskId === taskId);
  }

  /** Answers one request; the decision carries the call id and digest, which the runtime checks again. */
  answer(
    toolCallId: string,
    inputDigest: string,
    approved: boolean,
    reason?: string,
  ): { ok: true } | { ok: false; why: AnswerRefusal } {
    const waiter = this.waiting.get(toolCallId);
    if (!waiter) return { ok: false, why: 'no-such-request' };
    if (waiter.request.inputDigest !== inputDigest) return { ok: false, why: 'digest-mismatch' };
    this.waiting.delete(toolCallId);
    waiter.resolve({
      approved,
      toolCallId,
      inputDigest,
      ...(approved ? {} : { reason: reason?.trim() || 'the user rejected it in the browser' }),
    });
    return { ok: true };
  }
}
