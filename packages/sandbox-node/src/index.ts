export type { IsolationMode, NodeSandboxConfig, ResourceLimits } from './config.js';
export {
  createNodeSandbox,
  NodeSandbox,
  DEFAULT_EXEC_TIMEOUT_MS,
  DEFAULT_EXIT_DRAIN_MS,
  DEFAULT_INHERIT_ENV,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_SEARCH_TIMEOUT_MS,
} from './node-sandbox.js';
export { DEFAULT_READ_LIMIT, MAX_LINE_CHARS } from './read-file.js';
export { DEFAULT_LS_LIMIT } from './ls.js';
export { DEFAULT_GLOB_LIMIT } from './glob.js';
export { DEFAULT_GREP_LIMIT } from './grep.js';
export { MAX_EDIT_BYTES } from './edit-file.js';
export type { IsolationDescription, IsolationKind } from './isolation.js';
export { MAX_COMMAND_BYTES, MAX_TIMEOUT_MS } from './exec.js';
export {
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_MEMORY_BYTES,
  DEFAULT_MAX_OPEN_FILES,
  DEFAULT_MAX_PROCESSES,
} from './resource-limits.js';
export { MAX_GUARD_ENTRIES } from './git-guard.js';
