export { defineTool, isToolDefinition, TOOL_NAME_PATTERN } from './define-tool.js';
export type { SchemaInput } from './define-tool.js';
export { normalizeInputSchema } from './input-schema.js';
export type { InputIssue, InputValidation, JsonSchema, NormalizedInputSchema, ToolInputSchema } from './input-schema.js';
export type {
  AnyToolDefinition,
  CompactDecision,
  CompactInputDecision,
  CompactHook,
  CompactHookArgs,
  ImpactAssessment,
  InferToolInput,
  JsonValue,
  ModelOutput,
  OutputStream,
  ResultHookArgs,
  ToolDefinition,
  SyncToolDefinition,
  ToolExecutionContext,
  ToolResultHooks,
  ToolSpec,
} from './tool-definition.js';
export { modelOutputText, normalizeModelOutput } from './model-output.js';
export { cutHeadTail } from './head-tail.js';
export type { CutHeadTailOptions, HeadTailCut, TextEnds } from './head-tail.js';
export type { ServiceName, TaskContext, TaskPrecondition, ToolServices } from './services.js';
export type { ServerToolConfig, ToolConfigContext, ToolConfigMeta, ToolConfigRequirements } from './server-tool-config.js';
export { TOOL_CONFIG_METAS, TOOL_NAME_MAP } from './built-in-metas.js';
export type { BuiltInConfigKey } from './built-in-metas.js';
export { assertConsistent, findConsistencyProblems } from './assert-consistent.js';
export type { ConsistencyInput } from './assert-consistent.js';
export { requireCapability, resolveToolSet } from './resolve-tool-set.js';
export type { ExcludedConfig, ResolvedTool, ResolvedToolSet, ResolveToolSetOptions } from './resolve-tool-set.js';
export {
  RegistryConsistencyError,
  TOOL_STAGES,
  ToolDefinitionError,
  ToolError,
  toToolError,
} from './errors.js';
export type { ConsistencyProblem, ToolErrorOptions, ToolStage } from './errors.js';
export { unconfiguredConfig } from './unconfigured-config.js';
