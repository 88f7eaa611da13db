export { parseCommandLine, USAGE } from './args.js';
export type { CompositionArgs, ConfirmMode, DeferPathOption, ParsedCommand } from './args.js';
export { builtInConfigs, composeAgent } from './compose.js';
export type { ComposeAgentOptions, ComposedAgent, ToolsReport } from './compose.js';
export { chooseHostConfirmation } from './confirmation.js';
export type { HostConfirmation, HostConfirmationOptions } from './confirmation.js';
export { createModel, DEFAULT_BASE_URLS, DEFAULT_MODELS, defaultModelSpec } from './create-model.js';
export type { CreateModelOptions, ModelInfo, ModelProvider } from './create-model.js';
export { DEMO_ALLOW_RULES, DEMO_MCP_SERVER_PATH, DEMO_TASK, demoMcpConfig, demoScript } from './demo.js';
export { defaultHostConfigPath, loadHostCommandRules } from './host-config.js';
export type { HostCommandRules, LoadHostCommandRulesOptions } from './host-config.js';
export { AgentStartupError, ArgumentError } from './errors.js';
export type { AgentStage } from './errors.js';
export { openEventLog } from './events.js';
export type {
  AgentEvent,
  AgentEventSink,
  CompactionEvent,
  EventLog,
  ModelRequestEvent,
  RunEndEvent,
  RunStartEvent,
} from './events.js';
export { EXIT_CODES, main } from './main.js';
export type { CliIO } from './main.js';
export { withModelRequestEvents } from './model-request-middleware.js';
export type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
} from './model-types.js';
export { createRenderer } from './renderer.js';
export type { Renderer, RendererOptions, RendererOutput } from './renderer.js';
export { loadReplayScript, parseReplayScript, ReplayExhaustedError, ReplayLanguageModel } from './replay-model.js';
export type { ReplayModelOptions, ReplayScript, ReplayStep, ReplayToolCall } from './replay-model.js';
export { DEFAULT_MAX_STEPS, runTask } from './run-task.js';
export type { RunTaskOptions, RunTaskResult } from './run-task.js';
export { createEventRouter } from './event-router.js';
export type { EventRouter } from './event-router.js';
export { rawOutputText, viewCall } from './view-call.js';
