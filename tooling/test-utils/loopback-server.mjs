// The one loopback HTTP server of wire-level tests (provider stand-ins in defer, compactor and
// discovery are routes on it; plain JS so benchmarks run it on Node 20, types in the .d.mts): binds 127.0.0.1 on a free port, records every
// request (method, path, headers, parsed JSON body) and answers with a handler. Never listens beyond
// loopback; `close()` ends open connections so a test run never hangs on it.
import { createServer } from 'node:http';

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts a loopback server that routes `POST <path>` to `handler` and answers 404 otherwise. */
export async function startLoopbackServer(routes) {
  const requests = [];
  const counters = new Map();
  const sockets = new Set();
  const server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      let body = text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        // keep the raw text
      }
      const path = req.url ?? '/';
      const recorded = { method: req.method ?? 'GET', path, headers: req.headers, body };
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
        await routes[route](recorded, res, index);
      } catch (error) {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'test_server_error', message: error.message } }));
      }
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes Server-Sent Events (`event:` + `data:` lines) and ends the response. */
export function writeSse(res, events, done = false) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const e of events) {
    if (e.event) res.write(`event: ${e.event}\n`);
    res.write(`data: ${JSON.stringify(e.data)}\n\n`);
  }
  if (done) res.write('data: [DONE]\n\n');
  res.end();
}

/** Writes a JSON response. */
export function writeJson(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
