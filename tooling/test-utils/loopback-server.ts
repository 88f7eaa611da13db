// The one loopback HTTP server of wire-level tests (provider stand-ins in defer, compactor and
// discovery are routes on it): binds 127.0.0.1 on a free port, records every
// request (method, path, headers, parsed JSON body) and answers with a handler. Never listens beyond
// loopback; `close()` ends open connections so a test run never hangs on it.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request the server received. */
export interface RecordedRequest {
  /** HTTP method. */
  method: string;
  /** The path (with query). */
  path: string;
  /** Lower-cased request headers. */
  headers: Record<string, string | string[] | undefined>;
  /** The JSON body (or the raw text when it is not JSON). */
  body: any;
}

/** A running loopback server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

/** Handles one request; `index` counts requests to the handler's path from 0. */
export type LoopbackHandler = (request: RecordedRequest, response: ServerResponse, index: number) => void | Promise<void>;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts a loopback server that routes `POST <path>` to `handler` and answers 404 otherwise. */
export async function startLoopbackServer(routes: Record<string, LoopbackHandler>): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const counters = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      let body: unknown = text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        // keep the raw text
      }
      const path = req.url ?? '/';
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path, headers: req.headers, body };
      requests.push(recorded);
      const route = Object.keys(routes).find((r) => path === r || path.startsWith(`${r}?`));
      if (!route) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'not_found', message: `no route for ${path}` } }));
        return;
      }
      const index = counters.get(route) ?? 0;
      counters.set(route, index + 1);
      try {
        await routes[route]!(recorded, res, index);
      } catch (error) {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'test_server_error', message: (error as Error).message } }));
      }
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
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes Server-Sent Events (`event:` + `data:` lines) and ends the response. */
export function writeSse(res: ServerResponse, events: ReadonlyArray<{ event?: string; data: unknown }>, done = false): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const e of events) {
    if (e.event) res.write(`event: ${e.event}\n`);
    res.write(`data: ${JSON.stringify(e.data)}\n\n`);
  }
  if (done) res.write('data: [DONE]\n\n');
  res.end();
}

/** Writes a JSON response. */
export function writeJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
