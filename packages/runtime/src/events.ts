import type { ModelOutput, OutputStream, ToolStage } from '@aibuddy/registry';

/** A tool call the model made, as the runtime starts it. */
export interface ToolCallEvent {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** A live output chunk (transient: for the client only, never model context). */
export interface ToolOutputEvent {
  type: 'tool-output';
  toolCallId: string;
  stream: OutputStream;
  chunk: string;
}

/** An empty keep-alive for long calls (never model context). */
export interface HeartbeatEvent {
  type: 'heartbeat';
  toolCallId: string;
}

/**
 * A call ended: the client's projection, at once. Background work on the result (compaction)
 * never delays this event. `tool-result` follows when the model view is final.
 */
export interface ToolFinishedEvent {
  type: 'tool-finished';
  toolCallId: string;
  toolName: string;
  /** The client's projection (full result, display fields). */
  client: unknown;
  /** Present when the call failed, with the stage it failed in. */
  error?: { stage: ToolStage; message: string };
  /** Wall time of the call. */
  durationMs: number;
}

/**
 * The result as both consumers get it: the client projection and exactly what the model is sent
 * (after any compaction). Emitted once the model view is final, at the latest when the next model
 * request is built; failures and denials are final at once.
 */
export interface ToolResultEvent {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  /** The client's projection (full result, display fields). */
  client: unknown;
  /** Exactly what the model is sent for this result. */
  model: ModelOutput;
  /** Present when the call failed, with the stage it failed in. */
  error?: { stage: ToolStage; message: string };
  /** Wall time of the call. */
  durationMs: number;
}

/** A confirmation request for one concrete high-impact call. */
export interface ConfirmRequestEvent {
  type: 'confirm-request';
  toolCallId: string;
  toolName: string;
  target: string;
  scope: string;
  impact: string;
  /** Digest of the call's input the decision is bound to. */
  inputDigest: string;
  /**
   * The whole validated input the person is asked about (the one the digest binds). Show it with
   * the summary: `target` may be cut, and it is the input that runs.
   */
  input: unknown;
}

/** A person's decision on a confirmation request. */
export interface ConfirmDecisionEvent {
  type: 'confirm-decision';
  toolCallId: string;
  approved: boolean;
  reason?: string;
}

/** Every event the runtime emits to the client. */
export type RuntimeEvent =
  | ToolCallEvent
  | ToolOutputEvent
  | HeartbeatEvent
  | ToolFinishedEvent
  | ToolResultEvent
  | ConfirmRequestEvent
  | ConfirmDecisionEvent;

/** Receives runtime events. Must not throw; errors in a sink are swallowed. */
export type RuntimeEventSink = (event: RuntimeEvent) => void;
