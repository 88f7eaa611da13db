/** Where a confirmation request stands. */
export type ApprovalStatus =
  /** Asked; no decision has been used yet. */
  | 'pending'
  /** An approval was used to run the call; it can never be used again. */
  | 'used'
  /** The person rejected the call. */
  | 'rejected'
  /** The run was stopped while the request was open; a late approval is refused. */
  | 'stopped';

/** One confirmation request, bound to a call id and the digest of that call's input. */
export interface ApprovalRecord {
  /** The call the request was made for. */
  toolCallId: string;
  /** The tool of that call. */
  toolName: string;
  /** Digest of the input the person was shown (see `inputDigest`). */
  inputDigest: string;
  /** Where the request stands. */
  status: ApprovalStatus;
  /** The person's reason, or why the request was closed. */
  reason?: string;
}

/**
 * Remembers every confirmation request a runtime issued, so that an approval coming back (for
 * example as an AI SDK `tool-approval-response` in the next request's messages) is accepted only
 * for that call, that input, and only once. The default keeps records in memory; a stateless
 * server that answers approvals in a later HTTP request passes a ledger backed by its own store
 * and shares it between runs.
 */
export interface ApprovalLedger {
  /** The record of a call, if one was made. */
  get(toolCallId: string): ApprovalRecord | undefined | Promise<ApprovalRecord | undefined>;
  /** Creates or replaces the record of a call. */
  set(record: ApprovalRecord): void | Promise<void>;
  /**
   * Replaces the record of a call only if its status is still `expected`, atomically; resolves
   * `false` otherwise. Using an approval goes through this, so that two runs replaying the same
   * approval at the same time cannot both start the call. A store-backed ledger implements it as
   * a conditional write.
   */
  compareAndSet(record: ApprovalRecord, expected: ApprovalStatus): boolean | Promise<boolean>;
}

/** An in-memory {@link ApprovalLedger} (one process; records live as long as the ledger). */
export function createApprovalLedger(): ApprovalLedger {
  const records = new Map<string, ApprovalRecord>();
  return {
    get: (toolCallId) => {
      const record = records.get(toolCallId);
      return record ? { ...record } : undefined;
    },
    set: (record) => {
      records.set(record.toolCallId, { ...record });
    },
    compareAndSet: (record, expected) => {
      if (records.get(record.toolCallId)?.status !== expected) return false;
      records.set(record.toolCallId, { ...record });
      return true;
    },
  };
}
