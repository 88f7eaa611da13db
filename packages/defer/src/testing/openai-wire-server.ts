// A loopback server speaking the OpenAI Responses API (`POST /v1/responses`), JSON and streaming SSE,
// and the Chat Completions API (`POST /v1/chat/completions`, JSON and SSE) for OpenAI-compatible
// providers. For wire-level tests with the real `@ai-sdk/openai` provider:
//   createOpenAI({ baseURL: server.baseURL, apiKey: 'test' }).responses('gpt-5.4')
// Each request is answered with the next scripted turn (a function of the request, or a fixed list).
import { startLoopbackServer, writeJson, writeSse } from '@aibuddy/test-utils/loopback-server';
import type { LoopbackServer, RecordedRequest } from '@aibuddy/test-utils/loopback-server';

/** One output item of a Responses API answer. Use the helpers below to build them. */
export type ResponsesItem = { type: string; id: string; [key: string]: unknown };

/** One scripted Responses answer. */
export interface ResponsesTurn {
  /** The output items. */
  output: ResponsesItem[];
  /** Usage reported (default 10 in / 5 out). */
  usage?: { input_tokens: number; output_tokens: number };
}

/** Decides the answer to one Responses request. */
export type ResponsesScript = ResponsesTurn[] | ((body: any, index: number) => ResponsesTurn);

/** One scripted Chat Completions answer: text, or tool calls. */
export interface ChatTurn {
  /** Assistant text. */
  text?: string;
  /** Tool calls. */
  toolCalls?: Array<{ id: string; name: string; arguments: unknown }>;
}

/** Decides the answer to one Chat Completions request. */
export type ChatScript = ChatTurn[] | ((body: any, index: number) => ChatTurn);

/**
 * Checks a Responses request the way the API would, for what deferral touches: unique function
 * names (top level and inside namespaces), a `tool_search` tool whenever something is deferred, and
 * every `function_call_output` answering a `function_call` of the input. Returns the problem, or `undefined`.
 */
export function checkResponsesRequest(body: any): string | undefined {
  const tools: any[] = Array.isArray(body?.tools) ? body.tools : [];
  const functions = tools.flatMap((t) => (t.type === 'namespace' ? (t.tools ?? []) : t.type === 'function' ? [t] : []));
  const names = functions.map((f: any) => f.name);
  const dup = names.find((n: string, i: number) => names.indexOf(n) !== i);
  if (dup) return `tools: duplicate function name "${dup}".`;
  for (const ns of tools.filter((t) => t.type === 'namespace')) {
    if (typeof ns.description !== 'string' || ns.description === '') return `tools: namespace "${ns.name}" needs a description.`;
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(ns.name)) return `tools: invalid namespace name "${ns.name}".`;
  }
  const anyDeferred = functions.some((f: any) => f.defer_loading === true) || tools.some((t) => t.defer_loading === true);
  if (anyDeferred && !tools.some((t) => t.type === 'tool_search')) return 'tools: defer_loading requires a tool_search tool.';
  const input: any[] = Array.isArray(body?.input) ? body.input : [];
  const calls = new Set(input.filter((i) => i.type === 'function_call').map((i) => i.call_id));
  const orphan = input.find((i) => i.type === 'function_call_output' && !calls.has(i.call_id));
  if (orphan) return `input: No tool call found for function call output with call_id ${orphan.call_id}.`;
  return undefined;
}

/** Options of {@link startOpenAIWireServer}. */
export interface OpenAIWireServerOptions {
  /** Answer Responses requests that fail {@link checkResponsesRequest} with a 400, as the API would (default true). */
  strict?: boolean;
}

/** A running OpenAI wire server. */
export interface OpenAIWireServer extends LoopbackServer {
  /** Pass to `createOpenAI({ baseURL })` or `createOpenAICompatible({ baseURL })` (ends in `/v1`). */
  baseURL: string;
  /** The JSON bodies of every `/v1/responses` request, in order. */
  responsesBodies(): any[];
  /** The JSON bodies of every `/v1/chat/completions` request, in order. */
  chatBodies(): any[];
}

/** An assistant message item. */
export function messageItem(id: string, text: string): ResponsesItem {
  return {
    type: 'message',
    id,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [], logprobs: [] }],
  };
}

/** A function call item (`namespace` for tools inside a tool namespace). */
export function functionCallItem(id: string, callId: string, name: string, args: unknown, namespace?: string): ResponsesItem {
  return {
    type: 'function_call',
    id,
    call_id: callId,
    name,
    arguments: JSON.stringify(args),
    status: 'completed',
    ...(namespace === undefined ? {} : { namespace }),
  };
}

/** A hosted (server-executed) `tool_search_call` item. */
export function toolSearchCallItem(id: string, args: unknown): ResponsesItem {
  return { type: 'tool_search_call', id, execution: 'server', call_id: null, status: 'completed', arguments: args };
}

/** A hosted `tool_search_output` item that loads `tools` (function or namespace definitions). */
export function toolSearchOutputItem(id: string, tools: ReadonlyArray<Record<string, unknown>>): ResponsesItem {
  return { type: 'tool_search_output', id, execution: 'server', call_id: null, status: 'completed', tools: [...tools] };
}

function pick<T>(script: T[] | ((body: any, index: number) => T), body: any, index: number): T {
  if (typeof script === 'function') return script(body, index);
  const turn = script[Math.min(index, script.length - 1)];
  if (turn === undefined) throw new Error('empty OpenAI script');
  return turn;
}

function usageOf(turn: ResponsesTurn) {
  const u = turn.usage ?? { input_tokens: 10, output_tokens: 5 };
  return {
    ...u,
    total_tokens: u.input_tokens + u.output_tokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
}

function responsesStream(turn: ResponsesTurn, id: string, model: string) {
  const created = Math.floor(Date.now() / 1000);
  const events: Array<{ event: string; data: Record<string, unknown> }> = [];
  let seq = 0;
  const push = (data: Record<string, unknown>) =>
    events.push({ event: data.type as string, data: { ...data, sequence_number: seq++ } });
  push({
    type: 'response.created',
    response: { id, object: 'response', created_at: created, model, status: 'in_progress', output: [] },
  });
  turn.output.forEach((item, outputIndex) => {
    if (item.type === 'message') {
      const text = ((item.content as Array<{ text: string }>)[0]?.text ?? '') as string;
      push({
        type: 'response.output_item.added',
        output_index: outputIndex,
        item: { type: 'message', id: item.id, role: 'assistant', status: 'in_progress', content: [] },
      });
      push({
        type: 'response.content_part.added',
        item_id: item.id,
        output_index: outputIndex,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      push({
        type: 'response.output_text.delta',
        item_id: item.id,
        output_index: outputIndex,
        content_index: 0,
        delta: text,
        logprobs: [],
      });
      push({
        type: 'response.output_text.done',
        item_id: item.id,
        output_index: outputIndex,
        content_index: 0,
        text,
        logprobs: [],
      });
      push({ type: 'response.output_item.done', output_index: outputIndex, item });
    } else if (item.type === 'function_call') {
      push({
        type: 'response.output_item.added',
        output_index: outputIndex,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      push({
        type: 'response.function_call_arguments.delta',
        item_id: item.id,
        output_index: outputIndex,
        delta: item.arguments,
      });
      push({
        type: 'response.function_call_arguments.done',
        item_id: item.id,
        output_index: outputIndex,
        arguments: item.arguments,
      });
      push({ type: 'response.output_item.done', output_index: outputIndex, item });
    } else {
      push({ type: 'response.output_item.added', output_index: outputIndex, item: { ...item, status: 'in_progress' } });
      push({ type: 'response.output_item.done', output_index: outputIndex, item });
    }
  });
  push({
    type: 'response.completed',
    response: {
      id,
      object: 'response',
      created_at: created,
      model,
      status: 'completed',
      output: turn.output,
      usage: usageOf(turn),
      incomplete_details: null,
    },
  });
  return events;
}

function chatStream(turn: ChatTurn, id: string, model: string) {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    data: { id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish }] },
  });
  const events = [chunk({ role: 'assistant', content: '' }, null)];
  if (turn.text) events.push(chunk({ content: turn.text }, null));
  (turn.toolCalls ?? []).forEach((c, index) =>
    events.push(
      chunk(
        {
          tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.arguments) } }],
        },
        null,
      ),
    ),
  );
  events.push(chunk({}, turn.toolCalls?.length ? 'tool_calls' : 'stop'));
  events.push({
    data: {
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    } as never,
  });
  return events;
}

/** Starts an OpenAI server (Responses + Chat Completions) on 127.0.0.1. */
export async function startOpenAIWireServer(
  script: { responses?: ResponsesScript; chat?: ChatScript },
  options: OpenAIWireServerOptions = {},
): Promise<OpenAIWireServer> {
  const server = await startLoopbackServer({
    '/v1/responses': (request: RecordedRequest, res, index) => {
      if (!script.responses) throw new Error('no Responses script');
      const body = request.body as { model?: string; stream?: boolean };
      const problem = options.strict === false ? undefined : checkResponsesRequest(body);
      if (problem) {
        writeJson(res, 400, { error: { message: problem, type: 'invalid_request_error', param: null, code: null } });
        return;
      }
      const turn = pick(script.responses, body, index);
      const id = `resp_${index + 1}`;
      const model = body.model ?? 'gpt-test';
      if (body.stream) {
        writeSse(res, responsesStream(turn, id, model));
        return;
      }
      writeJson(res, 200, {
        id,
        object: 'response',
        created_at: Math.floor(Date.now() / 1000),
        status: 'completed',
        model,
        output: turn.output,
        usage: usageOf(turn),
        incomplete_details: null,
      });
    },
    '/v1/chat/completions': (request: RecordedRequest, res, index) => {
      if (!script.chat) throw new Error('no Chat Completions script');
      const body = request.body as { model?: string; stream?: boolean };
      const turn = pick(script.chat, body, index);
      const id = `chatcmpl_${index + 1}`;
      const model = body.model ?? 'gpt-test';
      if (body.stream) {
        writeSse(res, chatStream(turn, id, model), true);
        return;
      }
      writeJson(res, 200, {
        id,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: turn.text ?? null,
              ...(turn.toolCalls?.length
                ? {
                    tool_calls: turn.toolCalls.map((c) => ({
                      id: c.id,
                      type: 'function',
                      function: { name: c.name, arguments: JSON.stringify(c.arguments) },
                    })),
                  }
                : {}),
            },
            finish_reason: turn.toolCalls?.length ? 'tool_calls' : 'stop',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      });
    },
  });
  return {
    ...server,
    baseURL: `${server.origin}/v1`,
    responsesBodies: () => server.requests.filter((r) => r.path.startsWith('/v1/responses')).map((r) => r.body),
    chatBodies: () => server.requests.filter((r) => r.path.startsWith('/v1/chat/completions')).map((r) => r.body),
  };
}
