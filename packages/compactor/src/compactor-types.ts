/**
 * The public shapes of the compactor: what it is told about a finished call, what it reports,
 * its options and its interface. Kept apart from `compactor.ts`, which holds the behavior.
 */
import type { LanguageModel } from 'ai';
import type { TiktokenEncoding } from 'tiktoken';
import type { CompactHook, ModelOutput } from '@aibuddy/registry';
import type { CompactorError } from './errors.js';
import type { ResultStore, RetentionPolicy } from './result-store.js';
import type { TaskStore } from './task-store.js';
import type { TokenCounter } from './token-counter.js';
import type { ViewPage, ViewRequest } from './view-page.js';

/** The part of a tool definition the compactor reads (structurally a registry `ToolDefinition`). */
export interface CompactableTool {
  /** The tool's name. */
  readonly name: string;
  /** The tool's compaction hook. */
  readonly compact?: CompactHook<any, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Whether its results may be dropped after use. */
  readonly disposable?: boolean;
  /** Whether its results are never compacted. */
  readonly exemptFromCompaction?: boolean;
}

/**
 * What the compactor needs to know about a finished call: structurally the runtime's
 * `ToolExecutionEndInfo`, so the compactor does not depend on the runtime.
 */
export interface CompactionInput {
  /** The call id. */
  toolCallId: string;
  /** The tool name. */
  toolName: string;
  /** The tool's definition (hooks, `disposable`, `exemptFromCompaction`). */
  definition?: CompactableTool | undefined;
  /** The validated input. */
  input: unknown;
  /** The raw output. */
  output?: unknown;
  /** Present when the call failed: failed calls are never compacted. */
  error?: unknown;
  /** The model view before compaction. */
  modelOutput?: ModelOutput | undefined;
  /** The task (run) id. */
  taskId: string | undefined;
  /** Aborted when the run stops. */
  signal?: AbortSignal | undefined;
}

/** How a result was compacted. */
export type CompactionStrategy = 'trim' | 'summary' | 'drop';

/** Emitted once per compacted result, for the host's event log. */
export interface CompactionEvent {
  /** Event type. */
  type: 'compaction';
  /** The call. */
  toolCallId: string;
  /** The tool. */
  toolName: string;
  /**
   * How it was compacted. `trim` and `summary` apply from the next model step on; `drop` lets
   * the next step see the full result (its use) and `rebuildContext` leaves it out afterwards.
   */
  strategy: CompactionStrategy;
  /** Whether the tool's own hook chose it (`hook`) or the default policy did (`default`). */
  source: 'hook' | 'default';
  /** Tokens of the model view before compaction. */
  originalTokens: number;
  /** Tokens of the compacted view (including the recovery note). */
  compactedTokens: number;
  /**
   * The file that holds the raw input and output (`<dataDir>/compacted_outputs/<taskId>/<toolCallId>.json`);
   * absent for `drop`. The model's view names `view_tool_call` and the call id instead.
   */
  pointer?: string;
  /** Exactly what later model steps are sent for this result. */
  model: ModelOutput;
  /**
   * `input` when this event is about the call's input (then the token counts are the input's and
   * `compactedInput` is what later steps get instead of it); absent for results.
   */
  part?: 'input';
  /** The compact input later model steps get in place of the raw input (see `CompactInputDecision`). */
  compactedInput?: unknown;
}

/** A compacted input, part of an outcome. */
export interface CompactedInputPart {
  /** What later model steps get in place of the raw input. */
  compactedInput?: unknown;
  /** Tokens of the raw input (as JSON). */
  originalInputTokens?: number;
  /** Tokens of the compact input. */
  compactedInputTokens?: number;
}

/** The outcome of compacting one result (and, for tools whose hook says so, its input). */
export type CompactionOutcome = CompactedInputPart &
  (
    | {
        /** The result is sent as it is. */
        kind: 'untouched';
        /** Why (below the threshold, exempt, kept by its hook, compacted form not smaller, stopped, failed). */
        reason: string;
        /** Tokens of the view, when counted. */
        tokens?: number;
        /** Where the raw call was saved, when its input was compacted. */
        pointer?: string;
      }
    | ({
        /** The result is replaced by a smaller view. */
        kind: 'compacted';
      } & Omit<CompactionEvent, 'type'>)
  );

/** Options of {@link createCompactor}. */
export interface CompactorOptions {
  /** The host's data dir; raw results go to `<dataDir>/compacted_outputs/<taskId>/<toolCallId>.json`. */
  dataDir: string;
  /** Token threshold (default 2,500): results of at least this many tokens are compacted. */
  threshold?: number;
  /** The budget a compacted form aims for (default 1,000 tokens). */
  targetTokens?: number;
  /** The tiktoken encoding (default `o200k_base`). */
  encoding?: TiktokenEncoding;
  /** Use this counter instead of creating one (it is then not freed by `close`). */
  tokenCounter?: TokenCounter;
  /** The model that writes `summary` compactions. Without it, `summary` falls back to trimming. */
  summaryModel?: LanguageModel;
  /** Largest input, in tokens, sent to the summarising model (default 50,000). */
  maxSummaryInputTokens?: number;
  /** Retention of persisted raw results by age and size. */
  retention?: RetentionPolicy;
  /** Use this store instead of one over `dataDir` (tests, custom retention). */
  store?: ResultStore;
  /**
   * The host's task store (`createTaskStore`): `view_tool_call` then also reads calls that were
   * saved raw without being compacted.
   */
  taskStore?: TaskStore;
  /** A user stop for the whole run: aborts every background compaction. */
  signal?: AbortSignal;
  /** Receives one event per compacted result (for the host's log). Must not throw. */
  onCompaction?: (event: CompactionEvent) => void;
  /** Receives problems that did not stop the run (a refused `drop`, a failing hook or summary). */
  onWarning?: (error: CompactorError) => void;
  /**
   * How many calls' outcomes are kept in memory (default 2,000; the oldest settled ones go first).
   * A forgotten trimmed or summarised result is still found on disk by `rebuildContext`.
   */
  maxTrackedCalls?: number;
}

/** The runtime hooks of a compactor (structurally the runtime's `RuntimeHooks`). */
export interface CompactorHooks {
  /** Starts background compaction of a finished call; returns at once. */
  onToolExecutionEnd(info: CompactionInput): void;
  /** The compacted view for the next model request, waiting for the background job if needed. */
  resolveModelOutput(info: CompactionInput & { modelOutput: ModelOutput }): Promise<ModelOutput | undefined>;
}

/** A compactor for one host: counts tokens, compacts in the background, persists, recovers. */
export interface Compactor {
  /** Pass these to `createAiTools({ hooks })`. */
  readonly hooks: CompactorHooks;
  /** The store of raw results. */
  readonly store: ResultStore;
  /** The token counter (one reused encoder). */
  readonly tokenCounter: TokenCounter;
  /** The threshold in tokens. */
  readonly threshold: number;
  /** Compacts one result now and returns what happened (what the hooks do in the background). */
  compact(input: CompactionInput): Promise<CompactionOutcome>;
  /** The outcome of a call this compactor has seen (waits for its job), if any. */
  outcomeOf(taskId: string | undefined, toolCallId: string): Promise<CompactionOutcome | undefined>;
  /** Reads one page of a stored raw result (what `view_tool_call` returns). */
  view(request: ViewRequest): Promise<ViewPage>;
  /** Resolves when every background compaction started so far has settled. */
  whenIdle(): Promise<void>;
  /** Stops every running background compaction (a user stop). No half-written file remains. */
  cancel(reason?: unknown): void;
  /** Cancels running work, waits for it and frees the encoder. */
  close(): Promise<void>;
}
