export {
  ANTHROPIC_API_ORIGIN,
  anthropicModelSupportsToolSearch,
  chooseDeferPath,
  OPENAI_API_ORIGIN,
  openaiModelSupportsToolSearch,
} from './choose-defer-path.js';
export type { ChooseDeferPathInput, DeferModelInfo, DeferPath, DeferPathChoice, DeferPathOverride } from './choose-defer-path.js';
export { createDeferredTools, namesInProviderSearchResult } from './create-deferred-tools.js';
export type {
  AnthropicToolSearchKind,
  CreateDeferredToolsOptions,
  DeferredCallSettings,
  DeferredTools,
} from './create-deferred-tools.js';
export { indexDeferredTools, syncJsonSchema } from './tool-index.js';
export type { ToolSearchEngine } from './tool-index.js';
export { createToolSearchTool, DEFAULT_SEARCH_LIMIT, toolReferenceOutput } from './tool-search-tool.js';
export type {
  CreateToolSearchToolOptions,
  FoundTool,
  ToolSearchInput,
  ToolSearchOutput,
  ToolSearchPresentation,
} from './tool-search-tool.js';
