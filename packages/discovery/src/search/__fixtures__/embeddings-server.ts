// A loopback server speaking the OpenAI embeddings API (`POST /v1/embeddings`) for wire-level tests with
// the real `@ai-sdk/openai` provider:
//   createOpenAI({ baseURL: server.baseURL, apiKey: 'test' }).embedding('text-embedding-3-small')
// Vectors are deterministic: a hashed bag of words, where each word is first mapped through `concepts`
// (so the test can declare "car" and "automobile" the same meaning, which no lexical ranking knows).
// A route on the shared loopback server (127.0.0.1 only; `close()` drops open connections).
import { startLoopbackServer, writeJson } from '@aibuddy/test-utils/loopback-server';

export const DIMENSIONS = 64;

/** One request the server received. */
export interface EmbeddingsRequest {
  path: string;
  /** The model id sent. */
  model: string;
  /** The texts sent. */
  input: string[];
}

/** What the server does with one request. */
export type EmbeddingsBehavior = 'ok' | 'fail' | 'hang';

export interface EmbeddingsServer {
  /** `http://127.0.0.1:<port>/v1`, the provider's baseURL. */
  baseURL: string;
  /** Every request received, in order. */
  requests: EmbeddingsRequest[];
  /** Decides per request: answer, fail with HTTP 500, or never answer. Default 'ok'. */
  behaviour: (request: EmbeddingsRequest) => EmbeddingsBehavior;
  close(): Promise<void>;
}

function hash(word: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The deterministic vector of `text`: words (lower case, crude plural folding) through `concepts`, hashed. */
export function embedText(text: string, concepts: Record<string, string> = {}): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const word = raw.length > 3 && raw.endsWith('s') ? raw.slice(0, -1) : raw;
    const h = hash(concepts[word] ?? word);
    v[h % DIMENSIONS] = (v[h % DIMENSIONS] as number) + ((h >>> 16) & 1 ? 1 : -1);
  }
  return v;
}

export async function startEmbeddingsServer(concepts: Record<string, string> = {}): Promise<EmbeddingsServer> {
  const state: EmbeddingsServer = {
    baseURL: '',
    requests: [],
    behaviour: () => 'ok',
    close: async () => {},
  };
  const server = await startLoopbackServer({
    '/v1/embeddings': (recorded, res) => {
      const body = recorded.body as { model: string; input: string | string[] };
      const input = Array.isArray(body.input) ? body.input : [body.input];
      const request: EmbeddingsRequest = { path: recorded.path, model: body.model, input };
      state.requests.push(request);
      const behaviour = state.behaviour(request);
      if (behaviour === 'hang') return;
      if (behaviour === 'fail') {
        writeJson(res, 500, { error: { message: 'embedding backend unavailable', type: 'server_error' } });
        return;
      }
      writeJson(res, 200, {
        object: 'list',
        data: input.map((text, index) => ({ object: 'embedding', index, embedding: embedText(text, concepts) })),
        model: body.model,
        usage: { prompt_tokens: input.length, total_tokens: input.length },
      });
    },
  });
  state.baseURL = `${server.origin}/v1`;
  state.close = server.close;
  return state;
}
