import { wrapLanguageModel } from 'ai';
import type { LanguageModelMiddleware } from 'ai';
import type { LanguageModelV3 } from './language-model-v3.js';

type GenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
type StreamResult = Awaited<ReturnType<LanguageModelV3['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;
type Prompt = Parameters<LanguageModelV3['doGenerate']>[0]['prompt'];

/**
 * Wraps a model so that every tool call it returns has an id no other call of the conversation
 * has. Some servers reuse ids (one id for every call of a response, `name:0` restarting each
 * response, proxies that replay an id), and everything downstream is keyed by the id: the
 * person's decision, the model's view of a result, the stored raw output, the history rebuild
 * (which pairs a result with the first call of its id and drops a later call with the same id).
 *
 * An id already in the prompt, or already given to a call of this model (this run), is replaced
 * by `<id>_<n>` (the smallest n ≥ 2 that is free); the provider then receives the new id in the
 * next request's history, which is what APIs that insist on unique ids want. Ids that are
 * already unique, the usual case, pass through untouched.
 */
export function withUniqueToolCallIds(model: LanguageModelV3): LanguageModelV3 {
  // Ids given to calls by this wrapped model: a rebuild that turns an exchange into user text
  // takes its id out of the prompt, yet the ledger and the stores still know it.
  const given = new Set<string>();
  const middleware: LanguageModelMiddleware = {
    specificationVersion: 'v3',
    wrapGenerate: async ({ doGenerate, params }) => {
      const ids = new CallIds(idsIn(params.prompt), given);
      const result: GenerateResult = await doGenerate();
      return { ...result, content: result.content.map((part) => renameContent(part, ids)) };
    },
    wrapStream: async ({ doStream, params }) => {
      const ids = new CallIds(idsIn(params.prompt), given);
      const result: StreamResult = await doStream();
      const stream = result.stream.pipeThrough(
        new TransformStream<StreamPart, StreamPart>({
          transform: (part, controller) => controller.enqueue(renameStreamPart(part, ids)),
        }),
      );
      return { ...result, stream };
    },
  };
  return wrapLanguageModel({ model, middleware }) as LanguageModelV3;
}

/** Every tool call id the prompt already holds (calls and results). */
function idsIn(prompt: Prompt): Set<string> {
  const ids = new Set<string>();
  for (const message of prompt) {
    if (message.role !== 'assistant' && message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call' || part.type === 'tool-result') ids.add(part.toolCallId);
    }
  }
  return ids;
}

/**
 * The ids of one response. A call is opened by `tool-input-start` (streamed input) or by its
 * `tool-call` alone; the parts that follow with the same wire id belong to it until its
 * `tool-call`. A provider-run call's `tool-result` (and an approval request) refers to the latest
 * call of its wire id.
 */
class CallIds {
  private readonly current = new Map<string, { id: string; called: boolean }>();

  constructor(
    private readonly taken: Set<string>,
    private readonly given: Set<string>,
  ) {}

  /** A new call starts with this wire id. */
  open(wireId: string): string {
    const id = this.fresh(wireId);
    this.current.set(wireId, { id, called: false });
    return id;
  }

  /** A part inside the call of this wire id (an input delta or end). */
  inside(wireId: string): string {
    return this.current.get(wireId)?.id ?? this.open(wireId);
  }

  /** The `tool-call` of this wire id: closes the open call, or is a call of its own. */
  call(wireId: string): string {
    const open = this.current.get(wireId);
    if (open && !open.called) {
      open.called = true;
      return open.id;
    }
    const id = this.open(wireId);
    this.current.get(wireId)!.called = true;
    return id;
  }

  /** A part that refers to an earlier call of this wire id. */
  refer(wireId: string): string {
    return this.current.get(wireId)?.id ?? wireId;
  }

  private fresh(wireId: string): string {
    let id = wireId;
    for (let n = 2; this.taken.has(id) || this.given.has(id); n++) id = `${wireId}_${n}`;
    this.taken.add(id);
    this.given.add(id);
    return id;
  }
}

function renameContent(part: GenerateResult['content'][number], ids: CallIds): GenerateResult['content'][number] {
  switch (part.type) {
    case 'tool-call':
      return withId(part, 'toolCallId', ids.call(part.toolCallId));
    case 'tool-result':
    case 'tool-approval-request':
      return withId(part, 'toolCallId', ids.refer(part.toolCallId));
    default:
      return part;
  }
}

function renameStreamPart(part: StreamPart, ids: CallIds): StreamPart {
  switch (part.type) {
    case 'tool-input-start':
      return withId(part, 'id', ids.open(part.id));
    case 'tool-input-delta':
    case 'tool-input-end':
      return withId(part, 'id', ids.inside(part.id));
    case 'tool-call':
      return withId(part, 'toolCallId', ids.call(part.toolCallId));
    case 'tool-result':
    case 'tool-approval-request':
      return withId(part, 'toolCallId', ids.refer(part.toolCallId));
    default:
      return part;
  }
}

/** `part` with `key` set to `id`, or `part` itself when nothing changes (the common case). */
function withId<T extends object, K extends keyof T>(part: T, key: K, id: string): T {
  return part[key] === id ? part : { ...part, [key]: id };
}
