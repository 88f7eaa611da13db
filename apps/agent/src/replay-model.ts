import { readFileSync } from 'node:fs';
import { ArgumentError } from './errors.js';
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
} from './model-types.js';

/** One scripted tool call. */
export interface ReplayToolCall {
  /** The tool name, exactly as the model sees it. */
  toolName: string;
  /** The input object. */
  input: unknown;
  /** The call id (default `call-<step>-<index>`); give one to refer to the call later (`view_tool_call`). */
  id?: string;
}

/** One scripted model answer: tool calls (with optional text first), or final text. */
export type ReplayStep = { toolCalls: ReplayToolCall[]; text?: string } | { text: string };

/** A replay script: each model call consumes the next step. */
export interface ReplayScript {
  /** The steps, in order. */
  steps: ReplayStep[];
}

const marker = Symbol.for('aibuddy.agent.ReplayExhaustedError');

/** Thrown when the model is called after the last step of its script. */
export class ReplayExhaustedError extends Error {
  private readonly [marker] = true;
  override readonly name: string = 'ReplayExhaustedError';

  /** @param steps How many steps the script had. */
  constructor(steps: number) {
    super(
      `[model] the replay script has ${steps} step${steps === 1 ? '' : 's'} and all were used, but the run asked for another. ` +
        'Fix: end the script with a {"text": "..."} step, which finishes the run.',
    );
  }

  /** True for any `ReplayExhaustedError`. */
  static isInstance(error: unknown): error is ReplayExhaustedError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}

/**
 * Checks a parsed replay script and returns it typed. Throws `ArgumentError` naming the first
 * offending step and what it should look like.
 */
export function parseReplayScript(value: unknown, source = 'the replay script'): ReplayScript {
  const shape = '{"steps":[{"toolCalls":[{"toolName":"...","input":{...},"id":"optional"}]},{"text":"..."}]}';
  const fail = (what: string): never => {
    throw new ArgumentError(`${source}: ${what}. A replay script looks like ${shape}.`);
  };
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { steps?: unknown }).steps)) {
    return fail('there is no "steps" array at the top level');
  }
  const steps = (value as { steps: unknown[] }).steps;
  if (steps.length === 0) fail('"steps" is empty');
  steps.forEach((step, i) => {
    if (typeof step !== 'object' || step === null) return fail(`step ${i} is not an object`);
    const s = step as { toolCalls?: unknown; text?: unknown };
    if (s.text !== undefined && typeof s.text !== 'string') fail(`step ${i}: "text" must be a string`);
    if (s.toolCalls === undefined) {
      if (typeof s.text !== 'string') fail(`step ${i} has neither "toolCalls" nor "text"`);
      return;
    }
    if (!Array.isArray(s.toolCalls) || s.toolCalls.length === 0) return fail(`step ${i}: "toolCalls" must be a non-empty array`);
    s.toolCalls.forEach((call: unknown, j: number) => {
      const c = call as { toolName?: unknown; input?: unknown; id?: unknown };
      if (typeof c !== 'object' || c === null || typeof c.toolName !== 'string' || c.toolName === '') {
        fail(`step ${i}, call ${j}: "toolName" must be a non-empty string`);
      }
      if (c.id !== undefined && (typeof c.id !== 'string' || c.id === ''))
        fail(`step ${i}, call ${j}: "id" must be a non-empty string`);
      if (c.input !== undefined && (typeof c.input !== 'object' || c.input === null || Array.isArray(c.input))) {
        fail(`step ${i}, call ${j}: "input" must be an object`);
      }
    });
  });
  return value as ReplayScript;
}

/** Reads and checks a replay script file (`--model replay:FILE`). */
export function loadReplayScript(file: string): ReplayScript {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ArgumentError(
      `--model replay:${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Give the path of a JSON replay script.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ArgumentError(`--model replay:${file}: not valid JSON (${(error as Error).message}).`);
  }
  return parseReplayScript(json, `--model replay:${file}`);
}

const usage = (options: LanguageModelV3CallOptions, outputText: string) => {
  // Rough character-based estimate: the replay model has no tokenizer and the numbers only feed displays.
  const input = Math.ceil(JSON.stringify(options.prompt).length / 4);
  const output = Math.ceil(outputText.length / 4);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
};

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error(typeof reason === 'string' ? reason : 'The operation was aborted.');
  error.name = 'AbortError';
  return error;
}

/** Options of {@link ReplayLanguageModel}. */
export interface ReplayModelOptions {
  /** Shown as the model id (for example the script's file name). */
  modelId?: string;
  /** Size of the text chunks `doStream` emits (default 24 characters), so streaming is visible. */
  streamChunkSize?: number;
}

/**
 * A deterministic AI SDK language model (specification v3) that answers each call with the next
 * step of a script. Both `doGenerate` and `doStream` are supported; the tools offered and the
 * prompt are ignored, so the script decides everything.
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
  /** How many steps have been consumed. */
  stepsUsed = 0;
  private readonly chunkSize: number;

  /**
   * @param script The script (checked with {@link parseReplayScript}).
   * @param options Model id and stream chunking.
   */
  constructor(script: ReplayScript, options: ReplayModelOptions = {}) {
    this.script = parseReplayScript(script);
    this.modelId = options.modelId ?? 'script';
    this.chunkSize = Math.max(1, options.streamChunkSize ?? 24);
  }

  private next(options: LanguageModelV3CallOptions): { step: ReplayStep; index: number } {
    if (options.abortSignal?.aborted) throw abortError(options.abortSignal);
    const index = this.stepsUsed;
    const step = this.script.steps[index];
    if (!step) throw new ReplayExhaustedError(this.script.steps.length);
    this.stepsUsed++;
    return { step, index };
  }

  private static toolCalls(step: ReplayStep, index: number) {
    if (!('toolCalls' in step)) return [];
    return step.toolCalls.map((call, i) => ({
      type: 'tool-call' as const,
      toolCallId: call.id ?? `call-${index}-${i}`,
      toolName: call.toolName,
      input: JSON.stringify(call.input ?? {}),
    }));
  }

  /** Answers with the next step at once. */
  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const { step, index } = this.next(options);
    const calls = ReplayLanguageModel.toolCalls(step, index);
    const text = step.text ?? '';
    const content = [...(text ? [{ type: 'text' as const, text }] : []), ...calls];
    const finish = calls.length > 0 ? 'tool-calls' : 'stop';
    return {
      content,
      finishReason: { unified: finish, raw: finish },
      usage: usage(options, text + calls.map((c) => c.input).join('')),
      warnings: [],
      response: { id: `replay-${index}`, modelId: this.modelId, timestamp: new Date(0) },
    };
  }

  /** Streams the next step: its text in small chunks, then its tool calls. */
  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const { step, index } = this.next(options);
    const calls = ReplayLanguageModel.toolCalls(step, index);
    const text = step.text ?? '';
    const parts: LanguageModelV3StreamPart[] = [
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
    const finish = calls.length > 0 ? 'tool-calls' : 'stop';
    parts.push({
      type: 'finish',
      finishReason: { unified: finish, raw: finish },
      usage: usage(options, text + calls.map((c) => c.input).join('')),
    });
    const signal = options.abortSignal;
    let i = 0;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
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
