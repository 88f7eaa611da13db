/**
 * `createCompactor`: counts the tokens of each finished call's model view, compacts large ones in
 * the background (the tool's hook decides, else head + tail trimming), persists the raw call
 * before any pointer to it is shown, and hands the compacted view to the next model request.
 */
import type { ModelOutput } from '@aibuddy/registry';
import { askCompactHook, inputMayBeLarge } from './compact-hook.js';
import type { HookDecision } from './compact-hook.js';
import type {
  CompactionEvent,
  CompactionInput,
  CompactionOutcome,
  Compactor,
  CompactorHooks,
  CompactorOptions,
} from './compactor-types.js';
import { CompactorError } from './errors.js';
import { droppedNote, headTailTrim, modelOutputText, normalizeModelOutput, recoveryNote, VIEW_TOOL_CALL } from './model-view.js';
import { savedCallReader } from './find-call.js';
import { createResultStore } from './result-store.js';
import type { StoredResult } from './result-store.js';
import { summarizeResult } from './summarize.js';
import { createTokenCounter } from './token-counter.js';
import { readPage } from './view-page.js';

/** Results of this many tokens or more are compacted (fixed by the design). */
export const COMPACTION_THRESHOLD_TOKENS = 2_500;
/** The budget a compacted form aims for when the host sets none. */
export const DEFAULT_TARGET_TOKENS = 1_000;
/** Largest input sent to the summarising model, in tokens (longer results are cut head + tail). */
export const DEFAULT_MAX_SUMMARY_INPUT_TOKENS = 50_000;

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

  const decide = (input: CompactionInput, text: string, tokens: number, signal: AbortSignal, inputTokens?: number) =>
    askCompactHook(input, text, tokens, signal, { targetTokens, threshold, warn }, inputTokens);

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
      rawRecord(input, text, {
        strategy: 'keep',
        originalTokens: outputTokens,
        compactedTokens: outputTokens,
        compacted: input.modelOutput,
        compactedInput: compactInput,
      }),
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
    preset?: HookDecision,
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
      body = modelOutputText(normalizeModelOutput(decision.modelOutput));
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

    const record = rawRecord(input, text, {
      strategy,
      originalTokens: tokens,
      compactedTokens,
      compacted: model,
      ...(inputPart ? { compactedInput: inputPart.compactedInput } : {}),
    });
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
      // A result under an id this compactor has seen is a later call that reused the id: the
      // earlier call's outcome must not become this call's view.
      const id = key(info.taskId, info.toolCallId);
      jobs.delete(id);
      settled.delete(id);
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
        id,
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

function withoutType(event: CompactionEvent): Omit<CompactionEvent, 'type'> {
  const { type: _type, ...rest } = event;
  return rest;
}

/** The raw call as saved for recovery; `compaction` says how its views were compacted. */
function rawRecord(
  input: CompactionInput,
  text: string,
  compaction: Pick<StoredResult, 'strategy' | 'originalTokens' | 'compactedTokens' | 'compacted' | 'compactedInput'>,
): StoredResult {
  return {
    version: 1,
    taskId: input.taskId ?? null,
    toolCallId: input.toolCallId,
    toolName: input.toolName,
    input: input.input,
    output: input.output,
    modelText: text === input.output ? null : text,
    ...compaction,
    createdAt: new Date().toISOString(),
  };
}
