// The reference host's library surface: what apps/web, the benchmarks and the README use. Every
// decision behind it lives in a package; these are the composition and the CLI's pieces.
export { composeAgent, DEFAULT_MCP_START_WAIT_MS } from './compose.js';
export type { ComposeAgentOptions, ComposedAgent, ToolsReport } from './compose.js';
export { chooseHostConfirmation } from './confirmation.js';
export type { HostConfirmation, HostConfirmationOptions } from './confirmation.js';
export { createModel, defaultModelSpec } from './create-model.js';
export type { CreateModelOptions, ModelInfo, ModelProvider } from './create-model.js';
export { DEMO_ALLOW_RULES, demoMcpConfig, demoScript } from './demo.js';
export { loadHostCommandRules } from './host-config.js';
export type { HostCommandRules, LoadHostCommandRulesOptions } from './host-config.js';
export { openEventLog } from './events.js';
export type { AgentEvent, AgentEventSink, EventLog } from './events.js';
export { main } from './main.js';
export type { CliIO } from './main.js';
export type { Renderer } from './renderer.js';
export { runTask } from './run-task.js';
export type { RunTaskOptions, RunTaskResult } from './run-task.js';
