/**
 * The shapes `createAiTools` is configured with and reports through: lifecycle hooks and what
 * they are told about a finished call, authorization requests and decisions, and the options.
 * Kept apart so the confirmation gate and interaction tools depend on the shapes only.
 */
import type { AnyToolDefinition, ImpactAssessment, ModelOutput, ToolError, ToolServices } from '@aibuddy/registry';
import type { ConfirmationGate } from './confirmation-gate.js';
import type { RuntimeEventSink } from './events.js';

/** What the runtime knows about a finished call; given to lifecycle hooks. */
export interface ToolExecutionEndInfo {
  /** The call id. */
  toolCallId: string;
  /** The tool name the model used. */
  toolName: string;
  /** The config the tool belongs to. */
  configKey: string;
  /** The tool's definition (with its group's hooks). */
  definition: AnyToolDefinition;
  /** The validated input (the raw input when validation failed). */
  input: unknown;
  /** The raw output, when the call succeeded. */
  output?: unknown;
  /** The error, when it failed. */
  error?: ToolError;
  /** The model view before any compaction (for successful calls). */
  modelOutput?: ModelOutput;
  /** Wall time of the call. */
  durationMs: number;
  /** The task (run) id. */
  taskId: string | undefined;
  /** Aborted when the run stops: background work started for this result must stop too. */
  signal: AbortSignal;
}

/** Hooks other packages (the compactor) plug into without the runtime depending on them. */
export interface RuntimeHooks {
  /**
   * Called as soon as a call ends, without being awaited: background work (compaction) starts
   * here and never delays the client.
   */
  onToolExecutionEnd?(info: ToolExecutionEndInfo): void | Promise<void>;
  /**
   * Decides the final model view of a successful result just before the model is sent it
   * (for example, the compacted form). Return `undefined` to keep the view as it is.
   */
  resolveModelOutput?(
    info: ToolExecutionEndInfo & { modelOutput: ModelOutput },
  ): ModelOutput | undefined | Promise<ModelOutput | undefined>;
}

/** A request for a person's decision on one concrete call. */
export interface AuthorizationRequest extends ImpactAssessment {
  /** The call id the decision is bound to. */
  toolCallId: string;
  /** The tool. */
  toolName: string;
  /** The validated input. */
  input: unknown;
  /** Digest of the input (see `inputDigest`): the decision is bound to it. */
  inputDigest: string;
}

/** A person's decision. */
export interface AuthorizationDecision {
  /** Whether the call may run. */
  approved: boolean;
  /** The person's reason (sent to the model on rejection). */
  reason?: string;
  /**
   * The call the decision was given for. When present it must equal the request's: a decision
   * that travelled through a UI echoes it, so that a stale one replayed for another call is refused.
   */
  toolCallId?: string;
  /** The input digest the decision was given for; when present it must equal the request's. */
  inputDigest?: string;
}

/** Options of `createAiTools`. */
export interface CreateAiToolsOptions {
  /** Services given to every tool's execution context. */
  services?: ToolServices;
  /** The task (run) id. */
  taskId?: string;
  /** Receives client events. */
  onEvent?: RuntimeEventSink;
  /** Lifecycle hooks (the compactor's, a host's). */
  hooks?: RuntimeHooks | readonly RuntimeHooks[];
  /** Stops every call of this run (a user stop). Combined with the AI SDK's own signal. */
  signal?: AbortSignal;
  /**
   * Heartbeat period for running calls (default 30 s; `0` disables them). Each heartbeat is a client
   * event and a preliminary tool result the AI SDK counts as a stream chunk, so
   * `streamText({ timeout: { chunkMs } })` never aborts a call that is alive. Never model context.
   */
  heartbeatIntervalMs?: number;
  /**
   * Decides high-impact calls (those whose tool's `impact` returns an assessment). Without it,
   * high-impact calls are refused at the `authorization` stage: nothing decides for a person.
   */
  authorize?: (request: AuthorizationRequest, signal: AbortSignal) => Promise<AuthorizationDecision>;
  /**
   * The host's confirmation gate (`createConfirmationGate`): its policy decides high-impact calls,
   * its ledger binds decisions to call and input; with `via: 'ai-sdk'` high-impact calls declare
   * `needsApproval` and are answered by AI SDK approval responses. Takes precedence over `authorize`.
   */
  confirmation?: ConfirmationGate;
}
