import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebServer } from '../src/web-server.js';
import type { WebServer } from '../src/web-server.js';
import { browserSkipReason, BUILT_CLIENT, launchChromium, screenshotPath } from './browser.js';

const skip = browserSkipReason();
if (skip) console.warn(`web e2e tests skipped: ${skip}`);

function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A `replay:` script file (the CLI's scripted model format). */
function replayScript(steps: unknown[]): string {
  const file = join(tempDir('aibuddy-web-script-'), 'script.json');
  writeFileSync(file, JSON.stringify({ steps }));
  return file;
}

async function start(modelSpec: string, workspace = tempDir('aibuddy-web-ws-')): Promise<WebServer> {
  return startWebServer({
    workspace,
    modelSpec,
    dataDir: tempDir('aibuddy-web-data-'),
    clientDir: BUILT_CLIENT,
    heartbeatIntervalMs: 300,
  });
}

async function openAndRun(page: Page, server: WebServer, task?: string): Promise<void> {
  await page.goto(server.url);
  const box = page.getByLabel('Task');
  if (task !== undefined) await box.fill(task);
  await page.getByRole('button', { name: 'Run' }).click();
}

/** `sleep` processes whose duration starts with `marker` (the shells around them are not counted). */
function sleepsWith(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (argv[0]?.split('/').pop() === 'sleep' && argv[1]?.startsWith(marker)) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe.skipIf(skip !== undefined)('web client in a real Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('runs the demo to the end: live output before the command ends, confirmation, tool_search, compacted result with its raw middle', async () => {
    const server = await start('demo');
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    try {
      await openAndRun(page, server);
      // The demo's long command pauses halfway: its first half must be on screen while it still runs.
      const runCard = page.locator('[data-tool-call-id="demo-run"]');
      await expect
        .poll(async () => (await runCard.locator('.output').textContent({ timeout: 20_000 })) ?? '', { timeout: 30_000 })
        .toContain('line 0300');
      expect(await runCard.getAttribute('class')).toContain('input-available');
      await page.screenshot({ path: screenshotPath('1-live-output'), fullPage: true });

      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ timeout: 60_000 });
      await expect.poll(() => dialog.locator('.target').textContent()).toContain('build');
      await page.screenshot({ path: screenshotPath('2-confirmation') });
      await dialog.getByRole('button', { name: 'Approve' }).click();
      // The demo's last command is one the classifier cannot analyze: it asks too, and says why.
      await expect
        .poll(async () => (await dialog.count()) > 0 && (await dialog.locator('dd').allTextContents()).join(' '), {
          timeout: 60_000,
        })
        .toMatch(/cannot be analyzed/i);
      await dialog.getByRole('button', { name: 'Approve' }).click();

      await page.locator('.run-end[data-status="completed"]').waitFor({ timeout: 60_000 });
      // tool_search found the forecast tool, which joined the tool set and was called.
      expect(await page.locator('.joined').allTextContents()).toEqual(
        expect.arrayContaining([expect.stringContaining('toolbox__get_forecast')]),
      );
      expect(await page.locator('[data-tool-name="toolbox__get_forecast"]').count()).toBe(1);

      // The long command's result was compacted; its raw form pages through the stored output.
      const compaction = runCard.locator('.compaction');
      expect(await compaction.textContent()).toMatch(/compacted: \d+ → \d+ tokens/);
      await compaction.getByRole('button', { name: 'raw' }).click();
      const raw = runCard.locator('.raw-view pre');
      await raw.waitFor();
      // Lines from the middle of the output, which the model's head+tail view left out.
      for (let i = 0; i < 12 && !((await raw.textContent()) ?? '').includes('line 0250'); i++) {
        await runCard.locator('.raw-next').click();
        await page.waitForTimeout(100);
      }
      expect(await raw.textContent()).toContain('line 0250');
      await page.screenshot({ path: screenshotPath('3-done-with-raw-view'), fullPage: true });
      expect(existsSync(join(server.host.options.workspace, 'build'))).toBe(false);
    } finally {
      await page.close();
      await server.close();
    }
  }, 120_000);

  it('binds a confirmation to its call: approves one, rejects another, survives a reload, refuses an answer for another call', async () => {
    const workspace = tempDir('aibuddy-web-ws-');
    for (const dir of ['keep-a', 'keep-b']) {
      mkdirSync(join(workspace, dir));
      writeFileSync(join(workspace, dir, 'file.txt'), `${dir}\n`);
    }
    const script = replayScript([
      { toolCalls: [{ id: 'del-a', toolName: 'execute', input: { command: 'rm -rf keep-a' } }] },
      { toolCalls: [{ id: 'del-b', toolName: 'execute', input: { command: 'rm -rf keep-b' } }] },
      { text: 'Both asked.' },
    ]);
    const server = await start(`replay:${script}`, workspace);
    const page = await browser.newPage();
    try {
      await openAndRun(page, server, 'delete both folders');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ timeout: 30_000 });
      expect(await dialog.getAttribute('data-tool-call-id')).toBe('del-a');

      // Another tab answering with a call id that is not waiting, or with another input digest, is refused.
      const pending = (await (
        await fetch(`${server.origin}/api/pending`, { headers: { authorization: `Bearer ${server.token}` } })
      ).json()) as {
        pending: { toolCallId: string; inputDigest: string }[];
      };
      expect(pending.pending.map((p) => p.toolCallId)).toEqual(['del-a']);
      const answer = (body: unknown) =>
        fetch(`${server.origin}/api/confirm`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      expect((await answer({ toolCallId: 'del-b', inputDigest: pending.pending[0]!.inputDigest, approved: true })).status).toBe(
        404,
      );
      expect((await answer({ toolCallId: 'del-a', inputDigest: 'sha256:forged', approved: true })).status).toBe(409);

      // A reload keeps the waiting request.
      await page.reload();
      await dialog.waitFor({ timeout: 10_000 });
      expect(await dialog.getAttribute('data-tool-call-id')).toBe('del-a');
      await dialog.getByRole('button', { name: 'Approve' }).click();

      // The stream of the reloaded page is gone; the run goes on at the server and asks again.
      await expect
        .poll(
          async () => {
            const res = await fetch(`${server.origin}/api/pending`, { headers: { authorization: `Bearer ${server.token}` } });
            return ((await res.json()) as { pending: { toolCallId: string }[] }).pending.map((p) => p.toolCallId);
          },
          { timeout: 30_000 },
        )
        .toEqual(['del-b']);
      await page.reload();
      await dialog.waitFor({ timeout: 10_000 });
      expect(await dialog.getAttribute('data-tool-call-id')).toBe('del-b');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await expect.poll(() => server.host.runningTasks().length, { timeout: 30_000 }).toBe(0);

      expect(existsSync(join(workspace, 'keep-a'))).toBe(false);
      expect(readFileSync(join(workspace, 'keep-b', 'file.txt'), 'utf8')).toBe('keep-b\n');
    } finally {
      await page.close();
      await server.close();
      rmSync(workspace, { recursive: true, force: true });
    }
  }, 120_000);

  it('the dialog shows the whole input, with reordering characters escaped', async () => {
    const workspace = tempDir('aibuddy-web-ws-');
    mkdirSync(join(workspace, 'keep-a'));
    // A long comment pushes the end of the command out of any summary; U+202E would reorder it.
    const command = `rm -rf keep-a # ${'x'.repeat(400)} \u202e tail-marker`;
    const script = replayScript([{ toolCalls: [{ id: 'del', toolName: 'execute', input: { command } }] }, { text: 'asked' }]);
    const server = await start(`replay:${script}`, workspace);
    const page = await browser.newPage();
    try {
      await openAndRun(page, server, 'delete it');
      const dialog = page.getByRole('dialog');
      await dialog.waitFor({ timeout: 30_000 });
      const shown = (await dialog.locator('pre.input').textContent()) ?? '';
      expect(shown).toContain('tail-marker');
      expect(shown).toContain('\\u202e');
      expect(await dialog.textContent()).not.toContain('\u202e');
      // After a reload the request comes from the server's list: the input is there too.
      await page.reload();
      await dialog.waitFor({ timeout: 10_000 });
      expect(await dialog.locator('pre.input').textContent()).toContain('tail-marker');
      await dialog.getByRole('button', { name: 'Reject' }).click();
      await expect.poll(() => server.host.runningTasks().length, { timeout: 30_000 }).toBe(0);
      expect(existsSync(join(workspace, 'keep-a'))).toBe(true);
    } finally {
      await page.close();
      await server.close();
      rmSync(workspace, { recursive: true, force: true });
    }
  }, 120_000);

  it('stop button kills the running process tree', async () => {
    const marker = `31${Math.floor(Math.random() * 9000 + 1000)}`;
    const script = replayScript([
      {
        toolCalls: [
          {
            id: 'long',
            toolName: 'execute',
            input: { command: `echo started; sleep ${marker}1 & sleep ${marker}2; wait`, timeout: 600 },
          },
        ],
      },
      { text: 'not reached' },
    ]);
    const server = await start(`replay:${script}`);
    const page = await browser.newPage();
    try {
      await openAndRun(page, server, 'sleep for a long time');
      const card = page.locator('[data-tool-call-id="long"]');
      await expect
        .poll(async () => (await card.locator('.output').count()) > 0 && ((await card.locator('.output').textContent()) ?? ''), {
          timeout: 30_000,
        })
        .toContain('started');
      await expect.poll(() => sleepsWith(marker).length, { timeout: 10_000 }).toBe(2);
      // Heartbeats keep the card alive while the command is silent.
      await expect
        .poll(async () => (await card.locator('.status').textContent()) ?? '', { timeout: 10_000 })
        .toContain('heartbeat');
      await page.screenshot({ path: screenshotPath('4-running-with-heartbeat') });
      await page.getByRole('button', { name: 'Stop' }).click();
      await page.locator('.run-end[data-status="aborted"]').waitFor({ timeout: 30_000 });
      await expect.poll(() => sleepsWith(marker), { timeout: 10_000 }).toEqual([]);
    } finally {
      await page.close();
      await server.close();
    }
  }, 90_000);

  it('renders model text as text, never as HTML', async () => {
    const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    const server = await start(`replay:${replayScript([{ text: `Here it is: ${hostile}` }])}`);
    const page = await browser.newPage();
    try {
      await openAndRun(page, server, 'say something nasty');
      await page.locator('.run-end[data-status="completed"]').waitFor({ timeout: 30_000 });
      expect(await page.locator('.message.assistant .text').first().textContent()).toContain(hostile);
      expect(await page.locator('.conversation img').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      await page.screenshot({ path: screenshotPath('5-text-not-html') });
    } finally {
      await page.close();
      await server.close();
    }
  }, 60_000);
});

describe('web server access', () => {
  it('refuses every request without the token, listens on 127.0.0.1 only, and checks the Host header', async () => {
    const server = await start('demo');
    try {
      expect(new URL(server.origin).hostname).toBe('127.0.0.1');
      for (const path of ['/', '/api/state', '/api/pending', '/assets/x.js']) {
        expect((await fetch(`${server.origin}${path}`)).status).toBe(401);
      }
      expect((await fetch(`${server.origin}/api/chat`, { method: 'POST', body: '{}' })).status).toBe(401);
      expect((await fetch(`${server.origin}/api/state?token=${'0'.repeat(64)}`)).status).toBe(401);
      const ok = await fetch(`${server.origin}/api/state`, { headers: { authorization: `Bearer ${server.token}` } });
      expect(ok.status).toBe(200);
      // Opening the printed URL sets an HttpOnly, SameSite=Strict cookie for the page's own requests.
      const page = await fetch(server.url);
      expect(page.headers.get('set-cookie')).toMatch(/aibuddy_token=[0-9a-f]{64}; Path=\/; HttpOnly; SameSite=Strict/);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      // A cross-origin state change is refused even with the cookie.
      const cross = await fetch(`${server.origin}/api/tasks/x/stop`, {
        method: 'POST',
        headers: { cookie: `aibuddy_token=${server.token}`, origin: 'http://evil.example' },
      });
      expect(cross.status).toBe(403);
      const port = new URL(server.origin).port;
      // Nothing answers on another interface of this machine (when it has one).
      const { networkInterfaces } = await import('node:os');
      const other = Object.values(networkInterfaces())
        .flat()
        .find((i) => i && i.family === 'IPv4' && !i.internal);
      if (other)
        await expect(fetch(`http://${other.address}:${port}/api/state`, { signal: AbortSignal.timeout(3000) })).rejects.toThrow();
    } finally {
      await server.close();
    }
  });
});

describe('pnpm web', () => {
  it('prints one line with the URL and token, serves the demo, and stops on SIGTERM', async () => {
    const { spawn } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    const cli = fileURLToPath(new URL('../dist/server/cli.js', import.meta.url));
    const child = spawn(process.execPath, [cli, '--', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve(out.split('\n')[0]!);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code} before printing its URL`)));
      });
      const match = /^aibuddy web: (http:\/\/127\.0\.0\.1:(\d+))\/\?token=([0-9a-f]{64})$/.exec(line);
      expect(match, line).not.toBeNull();
      const state = await fetch(`${match![1]}/api/state`, { headers: { authorization: `Bearer ${match![3]}` } });
      expect(((await state.json()) as { model: string }).model).toBe('demo');
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
