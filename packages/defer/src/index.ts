export {
  ANTHROPIC_API_ORIGIN,
  anthropicModelSupportsToolSearch,
  chooseDeferPath,
  OPENAI_API_ORIGIN,
  openaiModelSupportsToolSearch,
} from './choose-defer-path.js';
export type { ChooseDeferPathInput, DeferModelInfo, DeferPath, DeferPathChoice, DeferPathOverride } from './choose-defer-path.js';
export { createDeferredTools, deferredServerNotes, toolSearchPresentation } from './create-deferred-tools.js';
export { namesInProviderSearchResult } from './step-observer.js';
export { activeToolMap } from './active-tool-map.js';
export type {
  AnthropicToolSearchKind,
  CreateDeferredToolsOptions,
  DeferredCallSettings,
  DeferredTools,
  RefreshedTools,
} from './create-deferred-tools.js';
