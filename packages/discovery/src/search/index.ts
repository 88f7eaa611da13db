export { createToolIndex, WARM_UP_SEARCHES } from './tool-index.js';
export { DEFAULT_TUNING } from './lexical-ranker.js';
export type { ToolIndexTuning } from './lexical-ranker.js';
export type {
  ToolIndex,
  ToolIndexEntry,
  ToolIndexOptions,
  ToolSearchHit,
  ToolSearchOptions,
  ToolSearchWarning,
} from './types.js';
export { ToolSearchQueryError } from './errors.js';
export { MAX_REGEX_LENGTH } from './regex-search.js';
export { reciprocalRankFusion, RRF_K } from './fusion.js';
