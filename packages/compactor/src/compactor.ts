import type { LanguageModel } from 'ai';
import type { TiktokenEncoding } from 'tiktoken';
import type { CompactDecision, CompactHook, ModelOutput } from '@aibuddy/registry';
import { CompactorError } from './errors.js';
import { droppedNote, headTailTrim, modelOutputText, recoveryNote, toModelOutput, VIEW_TOOL_CALL } from './model-view.js';
import { savedCallReader } from './find-call.js';
import { createResultStore } from './result-store.js';
import type { TaskStore } from './task-store.js';
import type { ResultStore, RetentionPolicy, StoredResult } from './result-store.js';
import { summarizeResult } from './summarize.js';
import { createTokenCounter } from './token-counter.js';
import type { TokenCounter } from './token-counter.js';
import { readPage } from './view-page.js';
import type { ViewPage, ViewRequest } from './view-page.js';

/** Results of this many tokens or more are compacted (fixed by the design). */
export const COMPACTION_THRESHOLD_TOKENS = 2_500;
/** The budget a compacted form aims for when the host sets none. */
export const DEFAULT_TARGET_TOKENS = 1_000;
/** Largest input sent to the summarising model, in tokens (longer results are cut head + tail). */
export const DEFAULT_MAX_SUMMARY_INPUT_TOKENS = 50_000;

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

const key = (taskId: string | undefined, toolCallId: string) => `${taskId ?? ''}\u0000${toolCallId}`;

/** How many calls' outcomes a compactor keeps in memory by default (older ones are read from disk). */
export const DEFAULT_MAX_TRACKED_CALLS = 2_000;

/** Creates a {@link Compactor}. */
export function createCompactor(options: CompactorOptions): Compactor {
  const threshold = options.threshold ?? COMPACTION_THRESHOLD_TOKENS;
  const targetTokens = options.targetTokens ?? DEFAULT_TARGET_TOKENS;
  if (!(threshold > 0) || !(targetTokens > 0)) {
    throw new CompactorError('threshold and targetTokens must be positive numbers of tokens.');
  }
  const ownsCounter = options.tokenCounter === undefined;
  const counter = options.tokenCounter ?? createTokenCounter(options.encoding ? { encoding: options.encoding } : {});
  const store =
    options.store ??
    createResultStore({ dataDir: options.dataDir, ...(options.retention ? { retention: options.retention } : {}) });
  const reader = savedCallReader(store, options.taskStore);
  let stop = new AbortController();
  const jobs = new Map<string, Promise<CompactionOutcome>>();
  const maxTracked = options.maxTrackedCalls ?? DEFAULT_MAX_TRACKED_CALLS;
  const settled = new Set<string>();
  const track = (id: string, job: Promise<CompactionOutcome>) => {
    jobs.delete(id);
    settled.delete(id);
    jobs.set(id, job);
    void job.then(() => {
      if (jobs.get(id) !== job) return;
      settled.add(id);
      // Forget the oldest settled outcomes beyond the cap; running jobs are never forgotten.
      for (const old of settled) {
        if (jobs.size <= maxTracked) break;
        settled.delete(old);
        jobs.delete(old);
      }
    });
    return job;
  };
  let closed = false;

  const warn = (error: CompactorError) => {
    try {
      options.onWarning?.(error);
    } catch {
      // A failing log sink never breaks compaction.
    }
  };
  const emit = (event: CompactionEvent) => {
    try {
      options.onCompaction?.(event);
    } catch {
      // As above.
    }
  };

  const signalFor = (signal: AbortSignal | undefined) => {
    const signals = [stop.signal, options.signal, signal].filter((s): s is AbortSignal => s !== undefined);
    return signals.length === 1 ? signals[0]! : AbortSignal.any(signals);
  };

  const decide = async (input: CompactionInput, text: string, tokens: number, signal: AbortSignal, inputTokens?: number) => {
    const hook = input.definition?.compact;
    if (!hook) return { decision: undefined, source: 'default' as const };
    try {
      const decision: CompactDecision = await hook({
        toolName: input.toolName,
        toolCallId: input.toolCallId,
        input: input.input,
        output: input.output,
        tokens,
        modelText: text,
        targetTokens,
        threshold,
        ...(inputTokens !== undefined ? { inputTokens } : {}),
        signal,
      });
      return { decision, source: 'hook' as const };
    } catch (error) {
      if (signal.aborted) throw error;
      warn(
        new CompactorError(
          `the compact hook of ${input.toolName} failed (${(error as Error)?.message}); the default trimming is used.`,
          {
            toolCallId: input.toolCallId,
            cause: error,
          },
        ),
      );
      return { decision: undefined, source: 'default' as const };
    }
  };

  /**
   * A large INPUT (a whole file to write) is compacted by the tool's hook only: there is no generic
   * compact form of an argument. The hook is asked once, for both parts; the output part of its
   * answer applies only when the output itself reaches the threshold.
   */
  const compactNow = async (input: CompactionInput, signal: AbortSignal): Promise<CompactionOutcome> => {
    if (input.error !== undefined) return { kind: 'untouched', reason: 'the call failed' };
    if (!input.modelOutput) return { kind: 'untouched', reason: 'no model view' };
    if (input.toolName === VIEW_TOOL_CALL || input.definition?.exemptFromCompaction) {
      return { kind: 'untouched', reason: 'exempt from compaction' };
    }
    const inputText =
      input.definition?.compact && typeof input.input === 'object' && input.input !== null ? JSON.stringify(input.input) : '';
    if (inputText === '' || counter.isCertainlyBelow(inputText, threshold)) return compactOutput(input, signal);
    const inputTokens = await counter.countAsync(inputText, signal);
    if (inputTokens < threshold) return compactOutput(input, signal);
    const text = modelOutputText(input.modelOutput);
    const preset = await decide(input, text, await counter.countAsync(text, signal), signal, inputTokens);
    const compactInput = preset.decision?.input;
    if (compactInput === undefined) return compactOutput(input, signal, preset);
    const compactInputTokens = await counter.countAsync(JSON.stringify(compactInput), signal);
    if (compactInputTokens >= inputTokens) return compactOutput(input, signal, preset);
    const inputPart = {
      compactedInput: compactInput,
      originalInputTokens: inputTokens,
      compactedInputTokens: compactInputTokens,
    };
    const outcome = await compactOutput(input, signal, preset, inputPart);
    if (outcome.kind === 'compacted' && outcome.strategy !== 'drop') return { ...outcome, ...inputPart };
    // Only the input shrinks: its raw form is saved (with the output) before the pointer is shown.
    if (signal.aborted) throw signal.reason;
    const outputTokens = (outcome.kind === 'untouched' ? outcome.tokens : undefined) ?? (await counter.countAsync(text, signal));
    const path = await store.write(
      {
        version: 1,
        taskId: input.taskId ?? null,
        toolCallId: input.toolCallId,
        toolName: input.toolName,
        input: input.input,
        output: input.output,
        modelText: text === input.output ? null : text,
        strategy: 'keep',
        originalTokens: outputTokens,
        compactedTokens: outputTokens,
        compacted: input.modelOutput,
        compactedInput: compactInput,
        createdAt: new Date().toISOString(),
      },
      signal,
    );
    emit({
      type: 'compaction',
      part: 'input',
      toolCallId: input.toolCallId,
      toolName: input.toolName,
      strategy: 'trim',
      source: 'hook',
      originalTokens: inputTokens,
      compactedTokens: compactInputTokens,
      pointer: path,
      model: input.modelOutput,
      compactedInput: compactInput,
    });
    return { ...outcome, ...inputPart, pointer: path };
  };

  const compactOutput = async (
    input: CompactionInput & { modelOutput?: ModelOutput | undefined },
    signal: AbortSignal,
    preset?: Awaited<ReturnType<typeof decide>>,
    inputPart?: { compactedInput: unknown },
  ): Promise<CompactionOutcome> => {
    if (!input.modelOutput) return { kind: 'untouched', reason: 'no model view' };
    if (input.modelOutput.type === 'content' && input.modelOutput.value.some((part) => part.type !== 'text')) {
      // Images and files are not text: trimming their base64 would only corrupt them.
      return { kind: 'untouched', reason: 'media content is not compacted' };
    }
    const text = modelOutputText(input.modelOutput);
    if (counter.isCertainlyBelow(text, threshold)) return { kind: 'untouched', reason: 'below the threshold' };
    const tokens = await counter.countAsync(text, signal);
    if (tokens < threshold) return { kind: 'untouched', reason: 'below the threshold', tokens };

    let { decision, source } = preset ?? (await decide(input, text, tokens, signal));
    if (decision?.strategy === 'keep') return { kind: 'untouched', reason: "kept by the tool's compact hook", tokens };
    if (decision?.strategy === 'drop' && !input.definition?.disposable) {
      warn(
        new CompactorError(
          `the compact hook of ${input.toolName} asked to drop a result, but the tool is not declared disposable; ` +
            'the result is trimmed and kept recoverable instead. Declare `disposable: true` on the tool to allow drops.',
          { toolCallId: input.toolCallId },
        ),
      );
      decision = undefined;
      source = 'default';
    }
    if (decision?.strategy === 'summary' && !options.summaryModel) {
      warn(
        new CompactorError(
          `the compact hook of ${input.toolName} asked for a summary, but no summary model was injected; trimming instead.`,
          {
            toolCallId: input.toolCallId,
          },
        ),
      );
      decision = undefined;
      source = 'default';
    }

    if (decision?.strategy === 'drop') {
      const model: ModelOutput = { type: 'text', value: droppedNote(input.toolName, tokens) };
      const compactedTokens = counter.count(model.value);
      if (compactedTokens >= tokens) return { kind: 'untouched', reason: 'the compacted form is not smaller', tokens };
      if (signal.aborted) throw signal.reason;
      const event: CompactionEvent = {
        type: 'compaction',
        toolCallId: input.toolCallId,
        toolName: input.toolName,
        strategy: 'drop',
        source,
        originalTokens: tokens,
        compactedTokens,
        model,
      };
      emit(event);
      return { kind: 'compacted', ...withoutType(event) };
    }

    let strategy: 'trim' | 'summary' = 'trim';
    let body: string;
    if (decision?.strategy === 'trim') {
      body = modelOutputText(toModelOutput(decision.modelOutput));
    } else if (decision?.strategy === 'summary') {
      try {
        body = await summarizeResult({
          model: options.summaryModel!,
          toolName: input.toolName,
          input: input.input,
          text,
          tokens,
          focus: decision.focus,
          targetTokens,
          maxInputTokens: options.maxSummaryInputTokens ?? DEFAULT_MAX_SUMMARY_INPUT_TOKENS,
          signal,
        });
        strategy = 'summary';
      } catch (error) {
        if (signal.aborted) throw error;
        warn(
          new CompactorError(`the summary of ${input.toolName} failed (${(error as Error)?.message}); trimming instead.`, {
            toolCallId: input.toolCallId,
            cause: error,
          }),
        );
        body = headTailTrim(text, tokens, targetTokens);
        source = 'default';
      }
    } else {
      body = headTailTrim(text, tokens, targetTokens);
    }
    const what = strategy === 'summary' ? 'summary' : 'view';
    const model: ModelOutput = { type: 'text', value: `${body}\n\n${recoveryNote(input.toolCallId, tokens, what)}` };
    const compactedTokens = await counter.countAsync(model.value, signal);
    if (compactedTokens >= tokens) return { kind: 'untouched', reason: 'the compacted form is not smaller', tokens };

    const record: StoredResult = {
      version: 1,
      taskId: input.taskId ?? null,
      toolCallId: input.toolCallId,
      toolName: input.toolName,
      input: input.input,
      output: input.output,
      modelText: text === input.output ? null : text,
      strategy,
      originalTokens: tokens,
      compactedTokens,
      compacted: model,
      ...(inputPart ? { compactedInput: inputPart.compactedInput } : {}),
      createdAt: new Date().toISOString(),
    };
    // The pointer may only be shown once the file it points to exists.
    const path = await store.write(record, signal);
    const event: CompactionEvent = {
      type: 'compaction',
      toolCallId: input.toolCallId,
      toolName: input.toolName,
      strategy,
      source,
      originalTokens: tokens,
      compactedTokens,
      pointer: path,
      model,
    };
    emit(event);
    return { kind: 'compacted', ...withoutType(event) };
  };

  const run = (input: CompactionInput): Promise<CompactionOutcome> => {
    if (closed) return Promise.resolve({ kind: 'untouched', reason: 'the compactor is closed' });
    const signal = signalFor(input.signal);
    return compactNow(input, signal).catch((error: unknown): CompactionOutcome => {
      if (signal.aborted) return { kind: 'untouched', reason: 'stopped' };
      warn(
        CompactorError.isInstance(error)
          ? error
          : new CompactorError(`compaction of ${input.toolName} failed: ${(error as Error)?.message}`, {
              toolCallId: input.toolCallId,
              cause: error,
            }),
      );
      return { kind: 'untouched', reason: 'compaction failed' };
    });
  };

  const hooks: CompactorHooks = {
    onToolExecutionEnd(info) {
      // Everything here is synchronous and cheap: the client path must not wait for us.
      if (closed || info.error !== undefined || !info.modelOutput) return;
      if (info.toolName === VIEW_TOOL_CALL || info.definition?.exemptFromCompaction) return;
      // The early exit only for text views (O(1) or a byte count of < 2,500 characters); turning a
      // JSON view into text could cost milliseconds for a large result, so that waits for the job.
      const view = info.modelOutput;
      if (
        (view.type === 'text' || view.type === 'error-text') &&
        counter.isCertainlyBelow(view.value, threshold) &&
        !inputMayBeLarge(info, threshold)
      )
        return;
      track(
        key(info.taskId, info.toolCallId),
        new Promise<void>((resolve) => setImmediate(resolve)).then(() => run(info)),
      );
    },
    async resolveModelOutput(info) {
      const job = jobs.get(key(info.taskId, info.toolCallId));
      if (!job) return undefined;
      const outcome = await job;
      // A dropped result is still sent to the step right after the call (that is its use);
      // `rebuildContext` leaves it out of later steps.
      return outcome.kind === 'compacted' && outcome.strategy !== 'drop' ? outcome.model : undefined;
    },
  };

  return {
    hooks,
    store,
    tokenCounter: counter,
    threshold,
    compact: (input) => track(key(input.taskId, input.toolCallId), run(input)),
    async outcomeOf(taskId, toolCallId) {
      return jobs.get(key(taskId, toolCallId));
    },
    async view(request) {
      return readPage(reader, request);
    },
    async whenIdle() {
      await Promise.allSettled([...jobs.values()]);
    },
    cancel(reason) {
      // Later calls (a new run on the same host) get a fresh controller.
      const current = stop;
      stop = new AbortController();
      current.abort(reason ?? new Error('compaction stopped by the user'));
    },
    async close() {
      if (closed) return;
      closed = true;
      stop.abort(new Error('the compactor was closed'));
      await Promise.allSettled([...jobs.values()]);
      if (ownsCounter) counter.free();
    },
  };
}

/** A cheap upper bound for the caller's path: could this call's input reach the threshold (its hook may compact it)? */
function inputMayBeLarge(info: CompactionInput, threshold: number): boolean {
  if (!info.definition?.compact || typeof info.input !== 'object' || info.input === null) return false;
  let chars = 0;
  for (const value of Object.values(info.input)) chars += typeof value === 'string' ? value.length : 64;
  // A token is at least one character: fewer characters than the threshold are certainly below it.
  return chars >= threshold;
}

function withoutType(event: CompactionEvent): Omit<CompactionEvent, 'type'> {
  const { type: _type, ...rest } = event;
  return rest;
}
