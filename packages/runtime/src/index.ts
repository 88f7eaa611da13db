export { createAiTools, DEFAULT_HEARTBEAT_INTERVAL_MS, RETAINED_FINISHED_CALLS } from './create-ai-tools.js';
export { createBeatSource, HEARTBEAT_CHUNK, isHeartbeatChunk, withHeartbeats } from './heartbeat-stream.js';
export type { BeatSource, HeartbeatChunk, HeartbeatingResult } from './heartbeat-stream.js';
export { isChunkTimeout, stopReason } from './stop-reason.js';
export { stageOfToolFailure } from './stage-of.js';
export type { StagedFailure } from './stage-of.js';
export type {
  AuthorizationDecision,
  AuthorizationRequest,
  CreateAiToolsOptions,
  RuntimeHooks,
  ToolExecutionEndInfo,
} from './ai-tools-types.js';
export type {
  ConfirmDecisionEvent,
  ConfirmRequestEvent,
  HeartbeatEvent,
  RuntimeEvent,
  RuntimeEventSink,
  ToolCallEvent,
  ToolFinishedEvent,
  ToolOutputEvent,
  ToolResultEvent,
} from './events.js';
export { defaultModelOutput, modelOutputText, normalizeModelOutput, toJsonValue } from './model-output.js';
export {
  AUTO_REJECT_REASON,
  CONFIRMATION_POLICIES,
  ConfirmationGateError,
  createConfirmationGate,
} from './confirmation-gate.js';
export type {
  ApprovalChannel,
  ConfirmationGate,
  ConfirmationGateOptions,
  ConfirmationPolicy,
  InteractionService,
  UserAnswer,
  UserQuestion,
} from './confirmation-gate.js';
export { createApprovalLedger } from './approval-ledger.js';
export type { ApprovalLedger, ApprovalRecord, ApprovalStatus } from './approval-ledger.js';
export { canonicalJson, inputDigest } from './input-digest.js';
export { findSdkApproval } from './sdk-approval.js';
export type { SdkApproval } from './sdk-approval.js';
export { createInteractionTools, interactionToolConfig } from './interaction-tools.js';
export type { AskUserQuestionOutput, ConfirmOutput } from './interaction-tools.js';
export { settleApprovalResponses } from './settle-approval-responses.js';
export type { SettleApprovalResponsesOptions } from './settle-approval-responses.js';
export {
  loadReplayScript,
  parseReplayScript,
  ReplayExhaustedError,
  ReplayLanguageModel,
  ReplayScriptError,
  replayScriptSchema,
} from './replay/index.js';
export type { ReplayCallOptions, ReplayModelOptions, ReplayScript, ReplayStep, ReplayToolCall } from './replay/index.js';
export { stageOfRunFailure } from './run-failure.js';
export type { RunFailure, RunStage } from './run-failure.js';
export { withModelRequestEvents } from './model-request-events.js';
export type { ModelPrompt, ModelRequestEvent } from './model-request-events.js';
export { withUniqueToolCallIds } from './unique-tool-call-ids.js';
export type { LanguageModelV3 } from './language-model-v3.js';
export { refusedCallEvents, runEndOf } from './run-end.js';
export type { RunEnd, RunEndInput } from './run-end.js';
export { createEventOrder } from './event-order.js';
export type { CallFollowUpEvent, EventOrder } from './event-order.js';
