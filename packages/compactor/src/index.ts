export {
  COMPACTION_THRESHOLD_TOKENS,
  createCompactor,
  DEFAULT_MAX_SUMMARY_INPUT_TOKENS,
  DEFAULT_MAX_TRACKED_CALLS,
  DEFAULT_TARGET_TOKENS,
} from './compactor.js';
export type {
  CompactedInputPart,
  CompactableTool,
  CompactionEvent,
  CompactionInput,
  CompactionOutcome,
  CompactionStrategy,
  Compactor,
  CompactorHooks,
  CompactorOptions,
} from './compactor-types.js';
export { CompactorError } from './errors.js';
export {
  DEFAULT_INTERACTION_NORMALIZERS,
  normalizeAskUserQuestion,
  normalizeConfirm,
} from './interactions.js';
export type { InteractionNormalizer, MessageToolOutput } from './interactions.js';
export { droppedNote, headTailTrim, modelOutputText, recoveryNote, VIEW_TOOL_CALL } from './model-view.js';
export { INTERRUPTED_RESULT_TEXT, rebuildContext } from './rebuild-context.js';
export type { RebuildContextOptions } from './rebuild-context.js';
export { COMPACTED_OUTPUTS_DIR, createResultStore, NO_TASK_FOLDER } from './result-store.js';
export type { PruneReport, ResultStore, ResultStoreOptions, RetentionPolicy, StoredResult } from './result-store.js';
export { safeName } from './safe-name.js';
export { atomicWriteFile, makeFolders, readFileNoFollow, realFolder, syncFolder } from './safe-fs.js';
export type { AtomicWriteOptions } from './safe-fs.js';
export { callRecordSchema, historyRecordSchema, storedResultSchema, taskRecordSchema } from './stored-records.js';
export { createTaskStore, TASKS_DIR } from './task-store.js';
export type {
  CallRecord,
  FinishedCall,
  HistoryRecord,
  TaskRecord,
  TaskStatus,
  TaskStore,
  TaskStoreOptions,
} from './task-store.js';
export { findSavedCall, savedCallReader } from './find-call.js';
export type { SavedCall, SavedCallReader } from './find-call.js';
export type { SafeNameOptions } from './safe-name.js';
export { summarizeResult } from './summarize.js';
export type { SummarizeArgs } from './summarize.js';
export {
  createTokenCounter,
  DEFAULT_ENCODING,
  MAX_SLICE_CHARS,
  TokenCounterClosedError,
  WARM_UP_SAMPLE,
} from './token-counter.js';
export type { TokenCounter, TokenCounterOptions } from './token-counter.js';
export { DEFAULT_VIEW_LIMIT, MAX_VIEW_LIMIT, partText, readPage } from './view-page.js';
export type { ViewPage, ViewPart, ViewRequest } from './view-page.js';
export { createViewToolCallTool, TOOL_RESULTS_CONFIG_KEY, toolResultsConfig } from './view-tool-call.js';
export type { CompactorService, ViewToolCallInput } from './view-tool-call.js';
export { openTaskHistory } from './task-history.js';
export type { OpenTaskHistoryOptions, TaskHistory } from './task-history.js';
export { dataDirInWorkspace, defaultDataDir, isDataDirInWorkspace, workspaceId } from './data-dir.js';
export { savedCallText } from './saved-call-text.js';
