// A loopback server speaking the Anthropic Messages API (`POST /v1/messages`), JSON and streaming SSE,
// for wire-level tests with the real `@ai-sdk/anthropic` provider:
//   createAnthropic({ baseURL: `${server.baseURL}`, apiKey: 'test' })
// Each request is answered with the next scripted turn (a function of the request, or a fixed list of
// content blocks). Server tool blocks (`server_tool_use`, `tool_search_tool_result` with
// `tool_reference`s) are passed through as given, as the real API sends them.
import { startLoopbackServer, writeJson, writeSse } from '@aibuddy/test-utils/loopback-server';
import type { LoopbackServer, RecordedRequest } from '@aibuddy/test-utils/loopback-server';

/** A content block of an Anthropic response. */
export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'server_tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_search_tool_result'; tool_use_id: string; content: unknown }
  | { type: string; [key: string]: unknown };

/** One scripted answer. */
export interface AnthropicTurn {
  /** The content blocks. */
  content: AnthropicBlock[];
  /** Default: `tool_use` when a `tool_use` block is present, else `end_turn`. */
  stopReason?: string;
  /** Usage reported (default 10 in / 5 out). */
  usage?: { input_tokens: number; output_tokens: number };
}

/** Decides the answer to one request. */
export type AnthropicScript = AnthropicTurn[] | ((body: any, index: number) => AnthropicTurn);

/**
 * Checks a request the way the Messages API would, for what deferral touches: unique tool names, at
 * least one tool loaded up front, every `tool_reference` naming a tool sent with `defer_loading`,
 * and every `tool_result` answering a `tool_use` of the assistant turn before it. Returns the
 * problem, or `undefined`.
 */
export function checkAnthropicRequest(body: any): string | undefined {
  const tools: Array<{ name?: string; type?: string; defer_loading?: boolean }> = Array.isArray(body?.tools) ? body.tools : [];
  const names = tools.map((t) => t.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) return `tools: Tool names must be unique (${dup}).`;
  if (tools.length > 0 && tools.every((t) => t.defer_loading === true)) return 'tools: At least one tool must not be deferred.';
  const deferred = new Set(tools.filter((t) => t.defer_loading === true).map((t) => t.name));
  const messages: Array<{ role: string; content: unknown }> = Array.isArray(body?.messages) ? body.messages : [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'user' || !Array.isArray(m.content)) continue;
    const prev = messages[i - 1];
    const uses = new Set(
      Array.isArray(prev?.content)
        ? (prev!.content as Array<{ type: string; id?: string }>).filter((b) => b.type === 'tool_use').map((b) => b.id)
        : [],
    );
    for (const block of m.content as Array<{ type: string; tool_use_id?: string; content?: unknown }>) {
      if (block.type !== 'tool_result') continue;
      if (!uses.has(block.tool_use_id))
        return `messages.${i}: tool_result ${block.tool_use_id} does not answer a tool_use of the previous assistant turn.`;
      for (const c of Array.isArray(block.content) ? (block.content as Array<{ type: string; tool_name?: string }>) : []) {
        if (c.type === 'tool_reference' && !deferred.has(c.tool_name)) {
          return `messages.${i}: tool_reference "${c.tool_name}" must name a tool sent with defer_loading: true.`;
        }
      }
    }
  }
  return undefined;
}

/** Options of {@link startAnthropicWireServer}. */
export interface AnthropicWireServerOptions {
  /** Answer requests that fail {@link checkAnthropicRequest} with a 400, as the API would (default true). */
  strict?: boolean;
}

/** A running Anthropic wire server. */
export interface AnthropicWireServer extends LoopbackServer {
  /** Pass to `createAnthropic({ baseURL })` (ends in `/v1`). */
  baseURL: string;
  /** The JSON bodies of every `/v1/messages` request, in order. */
  bodies(): any[];
}

/** A `tool_search_tool_result` block listing `toolNames` as `tool_reference`s. */
export function toolSearchResultBlock(toolUseId: string, toolNames: readonly string[]): AnthropicBlock {
  return {
    type: 'tool_search_tool_result',
    tool_use_id: toolUseId,
    content: {
      type: 'tool_search_tool_search_result',
      tool_references: toolNames.map((tool_name) => ({ type: 'tool_reference', tool_name })),
    },
  };
}

function turnFor(script: AnthropicScript, body: any, index: number): AnthropicTurn {
  if (typeof script === 'function') return script(body, index);
  const turn = script[Math.min(index, script.length - 1)];
  if (!turn) throw new Error('empty Anthropic script');
  return turn;
}

function stopReasonOf(turn: AnthropicTurn): string {
  return turn.stopReason ?? (turn.content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
}

function streamEvents(turn: AnthropicTurn, id: string, model: string): Array<{ event: string; data: unknown }> {
  const usage = turn.usage ?? { input_tokens: 10, output_tokens: 5 };
  const events: Array<{ event: string; data: unknown }> = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id,
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
        },
      },
    },
  ];
  turn.content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      });
      events.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: (block as { text: string }).text } },
      });
    } else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
      const b = block as { id: string; name: string; input: unknown };
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: block.type, id: b.id, name: b.name, input: {} } },
      });
      // Split the input JSON in two deltas, as the API streams partial JSON.
      const json = JSON.stringify(b.input ?? {});
      const half = Math.floor(json.length / 2);
      for (const partial of [json.slice(0, half), json.slice(half)]) {
        events.push({
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } },
        });
      }
    } else {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: block } });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: stopReasonOf(turn), stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

/** Starts an Anthropic Messages API server on 127.0.0.1 answering with `script`. */
export async function startAnthropicWireServer(
  script: AnthropicScript,
  options: AnthropicWireServerOptions = {},
): Promise<AnthropicWireServer> {
  const server = await startLoopbackServer({
    '/v1/messages': (request: RecordedRequest, res, index) => {
      const body = request.body as { model?: string; stream?: boolean };
      const problem = options.strict === false ? undefined : checkAnthropicRequest(body);
      if (problem) {
        writeJson(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: problem } });
        return;
      }
      const turn = turnFor(script, body, index);
      const id = `msg_${index + 1}`;
      const model = body.model ?? 'claude-test';
      if (body.stream) {
        writeSse(res, streamEvents(turn, id, model));
        return;
      }
      writeJson(res, 200, {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: turn.content,
        stop_reason: stopReasonOf(turn),
        stop_sequence: null,
        usage: turn.usage ?? { input_tokens: 10, output_tokens: 5 },
      });
    },
  });
  return {
    ...server,
    baseURL: `${server.origin}/v1`,
    bodies: () => server.requests.filter((r) => r.path.startsWith('/v1/messages')).map((r) => r.body),
  };
}
