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
  ToolOutputEvent,
  ToolResultEvent,
} from './events.js';
export { defaultModelOutput, modelOutputText, normalizeModelOutput, toJsonValue } from './model-output.js';
