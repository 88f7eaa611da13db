import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import type { ServerType } from '@hono/node-server';
import { createResultStore, savedCallText } from '@aibuddy/compactor';
import { createUIMessageStreamResponse } from 'ai';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { createAccessToken, requestToken, TOKEN_COOKIE, tokenMatches } from './access-token.js';
import { TaskBusyError, WebHost } from './web-host.js';
import type { WebHostOptions } from './web-host.js';

/** Where the built browser client lives (`vite build` output). */
export const CLIENT_DIR = fileURLToPath(new URL('../client/', import.meta.url));

/** Options of {@link startWebServer}. */
export interface WebServerOptions extends WebHostOptions {
  /** Interface to listen on (default `127.0.0.1`: nothing else can reach it unless told). */
  hostname?: string;
  /** Port (default 0: a free one). */
  port?: number;
  /** The access token (default: a fresh random one). */
  token?: string;
  /** The built client folder (default {@link CLIENT_DIR}). */
  clientDir?: string;
}

/** A running web server. */
export interface WebServer {
  /** `http://HOST:PORT/?token=TOKEN`: what a person opens. */
  url: string;
  /** The origin, without the token. */
  origin: string;
  /** The access token. */
  token: string;
  /** The host behind it. */
  host: WebHost;
  /** Stops every run and closes the server. */
  close(): Promise<void>;
}

/** Characters per raw page by default, and at most. */
const RAW_PAGE = 4000;
const MAX_RAW_PAGE = 50_000;
const TASK_ID = /^[A-Za-z0-9_-]{1,64}$/;
const ASSET_NAME = /^[A-Za-z0-9_.-]+\.(js|css|svg|png|ico|woff2?)$/;
const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
};

interface ChatBody {
  id?: unknown;
  messages?: { role?: unknown; parts?: { type?: unknown; text?: unknown }[] }[];
}

/** The text of the last user message of a `useChat` request body. */
function lastUserText(body: ChatBody): string | undefined {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'user' || !Array.isArray(message.parts)) continue;
    const text = message.parts
      .filter((p) => p.type === 'text' && typeof p.text === 'string')
      .map((p) => p.text as string)
      .join('\n')
      .trim();
    if (text) return text;
  }
  return undefined;
}

function refuse(c: Context, status: 400 | 401 | 403 | 404 | 409, message: string) {
  return c.json({ error: message }, status);
}

/** The Hono app: every route requires the token; the page gets it as an HttpOnly cookie. */
export function createWebApp(
  host: WebHost,
  options: { token: string; clientDir: string; allowedHosts: () => Set<string> },
): Hono {
  const app = new Hono();

  app.use('*', async (c, next) => {
    // DNS rebinding: a page on another name that resolves to 127.0.0.1 must not reach us.
    const hostHeader = c.req.header('host') ?? '';
    if (!options.allowedHosts().has(hostHeader)) return refuse(c, 403, `host "${hostHeader}" is not this server.`);
    const given = requestToken({ header: (n) => c.req.header(n), query: (n) => c.req.query(n) }, getCookie(c, TOKEN_COOKIE));
    if (!tokenMatches(options.token, given)) {
      return refuse(c, 401, 'this server needs the token printed at start: open the printed URL (…/?token=…).');
    }
    if (c.req.method !== 'GET') {
      // Cookies ride along with cross-site requests: a state change must come from our own page.
      const origin = c.req.header('origin');
      if (origin !== undefined && !options.allowedHosts().has(origin.replace(/^https?:\/\//, '')))
        return refuse(c, 403, 'cross-origin request refused.');
    }
    await next();
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header(
      'Content-Security-Policy',
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
    );
  });

  app.get('/', async (c) => {
    if (c.req.query('token') !== undefined) {
      setCookie(c, TOKEN_COOKIE, options.token, { httpOnly: true, sameSite: 'Strict', path: '/' });
    }
    const html = await readFile(join(options.clientDir, 'index.html'), 'utf8').catch(() => undefined);
    if (html === undefined) return c.text('aibuddy web: the client is not built (run `pnpm web`, which builds it).', 500);
    c.header('Cache-Control', 'no-store');
    return c.html(html);
  });

  app.get('/assets/:name', async (c) => {
    const name = c.req.param('name');
    if (!ASSET_NAME.test(name)) return refuse(c, 404, 'no such asset.');
    const body = await readFile(join(options.clientDir, 'assets', name)).catch(() => undefined);
    if (!body) return refuse(c, 404, 'no such asset.');
    c.header('Content-Type', CONTENT_TYPES[name.split('.').pop()!] ?? 'application/octet-stream');
    return c.body(new Uint8Array(body));
  });

  app.get('/api/state', (c) =>
    c.json({
      workspace: host.options.workspace,
      model: host.options.modelSpec,
      running: host.runningTasks(),
      pending: host.pending.list(),
    }),
  );

  app.post('/api/chat', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as ChatBody;
    const taskId = typeof body.id === 'string' ? body.id : '';
    if (!TASK_ID.test(taskId)) return refuse(c, 400, 'the chat id must be 1-64 letters, digits, "-" or "_".');
    const task = lastUserText(body);
    if (!task) return refuse(c, 400, 'no user message with text to run.');
    try {
      return createUIMessageStreamResponse({ stream: host.start(taskId, task) });
    } catch (error) {
      if (error instanceof TaskBusyError) return refuse(c, 409, error.message);
      throw error;
    }
  });

  app.post('/api/tasks/:taskId/stop', (c) => c.json({ stopped: host.stop(c.req.param('taskId')) }));

  app.get('/api/pending', (c) => c.json({ pending: host.pending.list(c.req.query('taskId')) }));

  app.post('/api/confirm', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as {
      toolCallId?: unknown;
      inputDigest?: unknown;
      approved?: unknown;
      reason?: unknown;
    };
    if (typeof body.toolCallId !== 'string' || typeof body.inputDigest !== 'string' || typeof body.approved !== 'boolean') {
      return refuse(c, 400, 'a decision needs toolCallId, inputDigest and approved (true or false).');
    }
    const answer = host.pending.answer(
      body.toolCallId,
      body.inputDigest,
      body.approved,
      typeof body.reason === 'string' ? body.reason : undefined,
    );
    if (answer.ok) return c.json({ ok: true });
    return answer.why === 'no-such-request'
      ? refuse(c, 404, `no confirmation is waiting for call ${body.toolCallId} (already answered, or its run stopped).`)
      : refuse(c, 409, 'this decision was given for other input than the call now waiting; reload and look again.');
  });

  app.get('/api/tasks/:taskId/calls/:toolCallId/raw', async (c) => {
    const taskId = c.req.param('taskId');
    const dataDir = host.dataDirOf(taskId);
    if (!TASK_ID.test(taskId) || !dataDir) return refuse(c, 404, `no data folder known for task ${taskId}.`);
    const offset = Number(c.req.query('offset') ?? 0);
    const limit = Math.min(Number(c.req.query('limit') ?? RAW_PAGE), MAX_RAW_PAGE);
    if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1)
      return refuse(c, 400, 'offset must be an integer ≥ 0 and limit ≥ 1.');
    const record = await createResultStore({ dataDir }).read(taskId, c.req.param('toolCallId'));
    if (!record)
      return refuse(c, 404, `no saved raw result for call ${c.req.param('toolCallId')} (only compacted results are kept).`);
    // The text a person reads (command output as printed), paged like view_tool_call pages it for the model.
    const text = savedCallText(record);
    const content = text.slice(offset, offset + limit);
    return c.json({
      toolCallId: record.toolCallId,
      toolName: record.toolName,
      offset,
      totalLength: text.length,
      nextOffset: offset + content.length < text.length ? offset + content.length : null,
      content,
    });
  });

  return app;
}

/** Starts the web host and server; resolves once it listens. */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const host = new WebHost(options);
  const token = options.token ?? createAccessToken();
  const hostname = options.hostname ?? '127.0.0.1';
  let port = 0;
  const allowed = new Set<string>();
  const app = createWebApp(host, { token, clientDir: options.clientDir ?? CLIENT_DIR, allowedHosts: () => allowed });
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname, port: options.port ?? 0 }, (info) => {
      port = info.port;
      resolve(s);
    });
    s.once('error', reject);
  });
  for (const name of [hostname, '127.0.0.1', 'localhost']) allowed.add(`${name}:${port}`);
  const shown = hostname.includes(':') ? `[${hostname}]` : hostname;
  allowed.add(`${shown}:${port}`);
  const origin = `http://${shown}:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    host,
    close: async () => {
      host.stopAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
