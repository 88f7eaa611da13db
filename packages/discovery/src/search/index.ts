export { createToolIndex, DEFAULT_TUNING } from './tool-index.js';
export type { ToolIndexTuning } from './tool-index.js';
export type { ToolIndex, ToolIndexEntry, ToolSearchHit, ToolSearchOptions } from './types.js';
export { ToolSearchQueryError } from './errors.js';
export { MAX_REGEX_LENGTH } from './regex-search.js';
