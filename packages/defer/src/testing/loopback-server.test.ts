import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLoopbackServer, writeJson } from '@aibuddy/test-utils/loopback-server';
import type { LoopbackServer } from '@aibuddy/test-utils/loopback-server';

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('startLoopbackServer', () => {
  it('binds 127.0.0.1, records JSON bodies, answers unknown paths with 404 and a failing handler with 500', async () => {
    const server = await startLoopbackServer({
      '/ok': (req, res, index) => writeJson(res, 200, { echo: req.body, index }),
      '/boom': () => {
        throw new Error('scripted failure');
      },
    });
    servers.push(server);
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const ok = await fetch(`${server.origin}/ok`, { method: 'POST', body: JSON.stringify({ a: 1 }) });
    expect(await ok.json()).toEqual({ echo: { a: 1 }, index: 0 });
    expect((await fetch(`${server.origin}/nope`, { method: 'POST' })).status).toBe(404);
    const boom = await fetch(`${server.origin}/boom`, { method: 'POST', body: '{}' });
    expect(boom.status).toBe(500);
    expect(await boom.json()).toMatchObject({ error: { message: 'scripted failure' } });
    expect(server.requests.map((r) => r.path)).toEqual(['/ok', '/nope', '/boom']);
  });

  it('close() ends even with a connection held open', async () => {
    const server = await startLoopbackServer({ '/hang': () => undefined });
    const pending = fetch(`${server.origin}/hang`, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(server.requests).toHaveLength(1));
    await server.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});
