// A loopback server speaking the OpenAI embeddings API (`POST /v1/embeddings`) for wire-level tests with
// the real `@ai-sdk/openai` provider:
//   createOpenAI({ baseURL: server.baseURL, apiKey: 'test' }).embedding('text-embedding-3-small')
// Vectors are deterministic: a hashed bag of words, where each word is first mapped through `concepts`
// (so the test can declare "car" and "automobile" the same meaning, which no lexical ranking knows).
// Binds 127.0.0.1 on a free port only; `close()` drops open connections so no test hangs on it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

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

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export async function startEmbeddingsServer(concepts: Record<string, string> = {}): Promise<EmbeddingsServer> {
  const sockets = new Set<Socket>();
  const state: EmbeddingsServer = {
    baseURL: '',
    requests: [],
    behaviour: () => 'ok',
    close: async () => {},
  };
  const server = createServer((req, res: ServerResponse) => {
    void (async () => {
      const body = await readBody(req);
      const input: string[] = Array.isArray(body.input) ? body.input : [body.input];
      const request: EmbeddingsRequest = { path: req.url ?? '', model: body.model, input };
      state.requests.push(request);
      const behaviour = req.url === '/v1/embeddings' ? state.behaviour(request) : 'fail';
      if (behaviour === 'hang') return;
      if (behaviour === 'fail') {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'embedding backend unavailable', type: 'server_error' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: input.map((text, index) => ({ object: 'embedding', index, embedding: embedText(text, concepts) })),
          model: body.model,
          usage: { prompt_tokens: input.length, total_tokens: input.length },
        }),
      );
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  state.baseURL = `http://127.0.0.1:${port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return state;
}
