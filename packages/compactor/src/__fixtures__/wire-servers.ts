// Minimal loopback stand-ins for the Anthropic Messages API and the OpenAI Responses API. They
// check the request body the REAL provider packages send against the rules those APIs enforce
// on tool histories, answer 400 (in the provider's error format) when a rule is broken, and
// answer a plain text turn otherwise. Routes on the shared loopback server; closed by the test.
import { startLoopbackServer, writeJson } from '@aibuddy/test-utils/loopback-server';

/** A running wire server. */
export interface WireServer {
  /** Base URL to give the provider (`.../v1`). */
  baseURL: string;
  /** Every request body received, in order. */
  bodies: Array<Record<string, unknown>>;
  /** The rule violations found in each request (empty when accepted). */
  violations: string[][];
  /** Stops the server. */
  close(): Promise<void>;
}

type Validator = (body: Record<string, unknown>) => string[];
type Responder = (body: Record<string, unknown>) => unknown;

async function start(
  path: string,
  validate: Validator,
  respond: Responder,
  errorBody: (problems: string[]) => unknown,
): Promise<WireServer> {
  const bodies: Array<Record<string, unknown>> = [];
  const violations: string[][] = [];
  const server = await startLoopbackServer({
    [path]: (request, response) => {
      if (typeof request.body !== 'object' || request.body === null) {
        writeJson(response, 400, errorBody(['body is not JSON']));
        return;
      }
      const body = request.body as Record<string, unknown>;
      bodies.push(body);
      const problems = validate(body);
      violations.push(problems);
      if (problems.length > 0) writeJson(response, 400, errorBody(problems));
      else writeJson(response, 200, respond(body));
    },
  });
  return { baseURL: `${server.origin}/v1`, bodies, violations, close: server.close };
}

type Block = { type: string; id?: string; tool_use_id?: string; text?: string; content?: unknown; is_error?: boolean };

/** The Anthropic rules on tool histories (as the Messages API enforces them). */
export function anthropicViolations(body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const messages = (body.messages ?? []) as Array<{ role: string; content: string | Block[] }>;
  if (messages[0]?.role !== 'user') problems.push('the first message must be a user message');
  messages.forEach((message, i) => {
    if (i > 0 && messages[i - 1]!.role === message.role) problems.push(`messages ${i - 1} and ${i} have the same role`);
    const blocks = typeof message.content === 'string' ? [] : message.content;
    if (message.role === 'assistant') {
      const uses = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id!);
      if (uses.length === 0) return;
      const next = messages[i + 1];
      const nextBlocks = next && typeof next.content !== 'string' ? next.content : [];
      const answered = new Set(nextBlocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id));
      for (const id of uses) {
        if (!answered.has(id)) problems.push(`tool_use ${id} has no tool_result in the next message`);
      }
    }
    if (message.role === 'user') {
      const previous = messages[i - 1];
      const previousBlocks = previous && typeof previous.content !== 'string' ? previous.content : [];
      const uses = new Set(previousBlocks.filter((b) => b.type === 'tool_use').map((b) => b.id));
      let seenOther = false;
      for (const block of blocks) {
        if (block.type === 'tool_result') {
          if (!uses.has(block.tool_use_id))
            problems.push(`tool_result ${block.tool_use_id} answers no tool_use of the previous message`);
          if (seenOther) problems.push('tool_result blocks must come first in a user message');
        } else seenOther = true;
      }
    }
  });
  return problems;
}

/** The OpenAI Responses rules on tool histories. */
export function openaiResponsesViolations(body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const input = (body.input ?? []) as Array<{ type?: string; role?: string; call_id?: string }>;
  const calls = new Map<string, number>();
  input.forEach((item, i) => {
    if (item.type === 'function_call') {
      if (calls.has(item.call_id!)) problems.push(`duplicate function_call ${item.call_id}`);
      calls.set(item.call_id!, i);
    }
  });
  const outputs = new Set<string>();
  input.forEach((item, i) => {
    if (item.type !== 'function_call_output') return;
    const at = calls.get(item.call_id!);
    if (at === undefined || at > i) problems.push(`function_call_output ${item.call_id} has no earlier function_call`);
    outputs.add(item.call_id!);
  });
  for (const id of calls.keys()) {
    if (!outputs.has(id)) problems.push(`No tool output found for function call ${id}.`);
  }
  return problems;
}

/** A loopback Anthropic Messages API. */
export function startAnthropicServer(validate: Validator = anthropicViolations): Promise<WireServer> {
  return start(
    '/v1/messages',
    validate,
    (body) => ({
      id: 'msg_loopback',
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [{ type: 'text', text: 'history accepted' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 3 },
    }),
    (problems) => ({ type: 'error', error: { type: 'invalid_request_error', message: problems.join('; ') } }),
  );
}

/** A loopback OpenAI Responses API. */
export function startOpenAIResponsesServer(validate: Validator = openaiResponsesViolations): Promise<WireServer> {
  return start(
    '/v1/responses',
    validate,
    (body) => ({
      id: 'resp_loopback',
      object: 'response',
      created_at: 1_700_000_000,
      status: 'completed',
      model: body.model,
      error: null,
      incomplete_details: null,
      output: [
        {
          type: 'message',
          id: 'msg_loopback',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'history accepted', annotations: [] }],
        },
      ],
      usage: {
        input_tokens: 10,
        output_tokens: 3,
        total_tokens: 13,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens_details: { reasoning_tokens: 0 },
      },
    }),
    (problems) => ({ error: { message: problems.join('; '), type: 'invalid_request_error', param: 'input', code: null } }),
  );
}
