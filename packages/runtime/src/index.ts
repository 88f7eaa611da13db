export { createAiTools, DEFAULT_HEARTBEAT_INTERVAL_MS } from './create-ai-tools.js';
export type {
  AuthorizationDecision,
  AuthorizationRequest,
  CreateAiToolsOptions,
  RuntimeHooks,
  ToolExecutionEndInfo,
} from './create-ai-tools.js';
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
