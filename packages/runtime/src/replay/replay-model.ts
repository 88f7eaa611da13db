import type { LanguageModelV3 } from '../language-model-v3.js';
import type { ReplayScript, ReplayStep } from './replay-script.js';

/** Options of one model call (prompt, tools, tool choice, abort signal, ...). */
export type ReplayCallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
type GenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
type StreamResult = Awaited<ReturnType<LanguageModelV3['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;

const exhaustedMarker = Symbol.for('aibuddy.runtime.ReplayExhaustedError');

/** Thrown when the model is called after the last step of its script. */
export class ReplayExhaustedError extends Error {
  private readonly [exhaustedMarker] = true;
  override readonly name: string = 'ReplayExhaustedError';

  /** @param steps How many steps the script had. */
  constructor(steps: number) {
    super(
      `[model] the replay script has ${steps} step${steps === 1 ? '' : 's'} and all were used, but the run asked for another. ` +
        'Fix: end the script with a {"text": "..."} step, which finishes the run.',
    );
  }

  /** True for any `ReplayExhaustedError`, from any copy of this package. */
  static isInstance(error: unknown): error is ReplayExhaustedError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[exhaustedMarker] === true;
  }
}

/** Options of {@link ReplayLanguageModel}. */
export interface ReplayModelOptions {
  /** Shown as the model id (for example the script's file name; default `script`). */
  modelId?: string;
  /** Size of the text chunks `doStream` emits (default 24 characters), so streaming is visible. */
  streamChunkSize?: number;
  /**
   * After the last step, answer every further call with it again instead of throwing
   * `ReplayExhaustedError` (tests that loop until a condition; default false).
   */
  repeatLastStep?: boolean;
}

function usage(options: ReplayCallOptions, outputText: string) {
  // Rough character-based estimate: the replay model has no tokenizer and the numbers only feed displays.
  const input = Math.ceil(JSON.stringify(options.prompt).length / 4);
  const output = Math.ceil(outputText.length / 4);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error(typeof reason === 'string' ? reason : 'The operation was aborted.');
  error.name = 'AbortError';
  return error;
}

function toolCallsOf(step: ReplayStep, index: number) {
  if (!('toolCalls' in step)) return [];
  return step.toolCalls.map((call, i) => ({
    type: 'tool-call' as const,
    toolCallId: call.id ?? `call-${index}-${i}`,
    toolName: call.toolName,
    input: JSON.stringify(call.input ?? {}),
  }));
}

/**
 * A deterministic AI SDK language model (specification v3) that answers each call with the next
 * step of a script: the offline demo and `--model replay:FILE` of the reference host, and the
 * scripted model of every package's tests. Both `doGenerate` and `doStream` are supported; the
 * tools offered and the prompt are ignored (but recorded in `calls`), so the script decides everything.
 */
export class ReplayLanguageModel implements LanguageModelV3 {
  /** The specification this model implements. */
  readonly specificationVersion = 'v3' as const;
  /** Provider id: `replay`. */
  readonly provider: string = 'replay';
  /** The model id (the script's name). */
  readonly modelId: string;
  /** No URLs are fetched natively. */
  readonly supportedUrls: Record<string, RegExp[]> = {};
  /** The script being played. */
  readonly script: ReplayScript;
  /** The options of every call so far, in order (what the model was sent). */
  readonly calls: ReplayCallOptions[] = [];
  /** How many steps have been consumed. */
  stepsUsed = 0;
  private readonly chunkSize: number;
  private readonly repeatLastStep: boolean;

  /**
   * @param script The script (check one read from a file with `parseReplayScript` first).
   * @param options Model id, stream chunking, what happens after the last step.
   */
  constructor(script: ReplayScript, options: ReplayModelOptions = {}) {
    this.script = script;
    this.modelId = options.modelId ?? 'script';
    this.chunkSize = Math.max(1, options.streamChunkSize ?? 24);
    this.repeatLastStep = options.repeatLastStep === true;
  }

  private next(options: ReplayCallOptions) {
    if (options.abortSignal?.aborted) throw abortError(options.abortSignal);
    this.calls.push(options);
    const steps = this.script.steps;
    const index = this.repeatLastStep ? Math.min(this.stepsUsed, steps.length - 1) : this.stepsUsed;
    const step = steps[index];
    if (!step) throw new ReplayExhaustedError(steps.length);
    this.stepsUsed++;
    const calls = toolCallsOf(step, index);
    const text = step.text ?? '';
    const finish = calls.length > 0 ? ('tool-calls' as const) : ('stop' as const);
    return {
      index,
      calls,
      text,
      finishReason: { unified: finish, raw: finish },
      usage: usage(options, text + calls.map((c) => c.input).join('')),
    };
  }

  /** Answers with the next step at once. */
  async doGenerate(options: ReplayCallOptions): Promise<GenerateResult> {
    const { index, calls, text, finishReason, usage } = this.next(options);
    return {
      content: [...(text ? [{ type: 'text' as const, text }] : []), ...calls],
      finishReason,
      usage,
      warnings: [],
      response: { id: `replay-${index}`, modelId: this.modelId, timestamp: new Date(0) },
    };
  }

  /** Streams the next step: its text in small chunks, then its tool calls. */
  async doStream(options: ReplayCallOptions): Promise<StreamResult> {
    const { index, calls, text, finishReason, usage } = this.next(options);
    const parts: StreamPart[] = [
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: `replay-${index}`, modelId: this.modelId, timestamp: new Date(0) },
    ];
    if (text) {
      parts.push({ type: 'text-start', id: `text-${index}` });
      for (let at = 0; at < text.length; at += this.chunkSize) {
        parts.push({ type: 'text-delta', id: `text-${index}`, delta: text.slice(at, at + this.chunkSize) });
      }
      parts.push({ type: 'text-end', id: `text-${index}` });
    }
    for (const call of calls) {
      parts.push({ type: 'tool-input-start', id: call.toolCallId, toolName: call.toolName });
      parts.push({ type: 'tool-input-delta', id: call.toolCallId, delta: call.input });
      parts.push({ type: 'tool-input-end', id: call.toolCallId });
      parts.push(call);
    }
    parts.push({ type: 'finish', finishReason, usage });
    const signal = options.abortSignal;
    let i = 0;
    const stream = new ReadableStream<StreamPart>({
      pull(controller) {
        if (signal?.aborted) {
          controller.error(abortError(signal));
          return;
        }
        const part = parts[i++];
        if (part) controller.enqueue(part);
        else controller.close();
      },
    });
    return { stream };
  }
}
