import { existsSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepCountIs, streamText } from 'ai';
import { resolveToolSet } from '@aibuddy/registry';
import { createAiTools } from '@aibuddy/runtime';
import type { RuntimeEvent } from '@aibuddy/runtime';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import type { ISandbox } from '@aibuddy/sandbox';
import { calls, createWorkspace, runSteps } from '@aibuddy/tool-harness';
import type { Workspace } from '@aibuddy/tool-harness';
import { createShellToolConfig, shellToolConfig } from './shell-config.js';
import type { ExecuteOutput } from './exec-result.js';

let ws: Workspace;
beforeAll(async () => {
  ws = await createWorkspace();
});
afterAll(async () => {
  await ws.dispose();
});

function clientOf(events: Awaited<ReturnType<typeof runSteps>>['events'], id: string): ExecuteOutput {
  const event = events.find((e) => e.type === 'tool-result' && e.toolCallId === id);
  if (!event || event.type !== 'tool-result') throw new Error(`no tool-result event for ${id}`);
  return event.client as ExecuteOutput;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

describe('the shell config', () => {
  it('is excluded with the reason when the host has no sandbox', async () => {
    const set = await resolveToolSet({ configs: [shellToolConfig] });
    expect(set.tools).toEqual([]);
    expect(set.excluded).toEqual([{ key: 'shell', reason: 'no sandbox in this host' }]);
  });

  it('yields execute with run instructions when a sandbox is injected', async () => {
    const set = await resolveToolSet({ configs: [shellToolConfig], services: { sandbox: ws.sandbox } });
    expect(set.tools.map((t) => t.definition.name)).toEqual(['execute']);
    expect(set.instructions[0]?.text).toMatch(/timeout is in seconds \(default 120, at most 600\)/);
    expect(set.instructions[0]?.text).toMatch(/30000 characters/);
  });
});

describe('execute through generateText', () => {
  it('returns exit code, duration and both streams; a non-zero exit is a result, and chunks stream live to the client', async () => {
    const run = await runSteps(
      shellToolConfig,
      ws.sandbox,
      calls(['c1', 'execute', { command: 'echo hello; echo oops >&2; exit 3' }]),
    );
    const seen = run.seen('c1');
    expect(seen.type).toBe('text');
    expect(seen.text).toMatch(/^exit code: 3 \| duration: \d+ ms/);
    expect(seen.text).toContain('--- stdout ---\nhello\n');
    expect(seen.text).toContain('--- stderr ---\noops\n');
    const chunks = run.events.filter((e) => e.type === 'tool-output');
    expect(chunks.map((e) => (e.type === 'tool-output' ? `${e.stream}:${e.chunk}` : '')).sort()).toEqual([
      'stderr:oops\n',
      'stdout:hello\n',
    ]);
    const resultIndex = run.events.findIndex((e) => e.type === 'tool-result');
    expect(run.events.findIndex((e) => e.type === 'tool-output')).toBeLessThan(resultIndex);
    // Live chunks are client-only: the model sees the view once, never the chunk events.
    expect(clientOf(run.events, 'c1')).toMatchObject({
      exitCode: 3,
      stdout: 'hello\n',
      stderr: 'oops\n',
      timedOut: false,
      stopped: false,
    });
  });

  it('runs in a cwd inside the workspace and refuses one outside it (parameters)', async () => {
    await writeFile(join(ws.root, 'marker.txt'), 'x');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(ws.root, 'sub'), { recursive: true });
    const run = await runSteps(
      shellToolConfig,
      ws.sandbox,
      calls(
        ['in', 'execute', { command: 'pwd', cwd: 'sub' }],
        ['out', 'execute', { command: 'pwd', cwd: '../..' }],
        ['missing', 'execute', { command: 'pwd', cwd: 'nope' }],
      ),
    );
    expect(run.seen('in').text).toContain(`${ws.root}/sub`);
    expect(run.seen('out').type).toBe('error-text');
    expect(run.seen('out').text).toMatch(/^\[parameters\] execute: cwd "\.\.\/\.\." is outside the workspace/);
    expect(run.seen('missing').text).toMatch(/^\[parameters\] execute: cwd "nope"/);
  });

  it('refuses a timeout over the maximum, and says the unit is seconds', async () => {
    const run = await runSteps(
      shellToolConfig,
      ws.sandbox,
      calls(['t', 'execute', { command: 'true', timeout: 120000 }], ['e', 'execute', { command: '  ' }]),
    );
    expect(run.seen('t').text).toMatch(/^\[parameters\] execute: invalid input: timeout: timeout is in seconds and at most 600/);
    expect(run.seen('e').text).toMatch(/^\[parameters\] execute: invalid input: command: command is empty/);
  });

  it('shows 5 MB of output as head and tail within 30,000 characters plus the header, with the exact omitted count', async () => {
    const command = "printf 'HEAD-MARKER\\n'; yes 0123456789 | head -c 5000000; printf 'TAIL-MARKER\\n'";
    const expected = `HEAD-MARKER\n${'0123456789\n'.repeat(Math.ceil(5_000_000 / 11)).slice(0, 5_000_000)}TAIL-MARKER\n`;
    const run = await runSteps(shellToolConfig, ws.sandbox, calls(['big', 'execute', { command }]));
    const text = run.seen('big').text;
    const bodyAt = text.indexOf('--- stdout ---\n');
    const header = text.slice(0, bodyAt);
    expect(header).toMatch(/^exit code: 0 \| duration: /);
    expect(text.length).toBeLessThanOrEqual(30_000 + header.length);
    expect(text.length).toBeGreaterThan(25_000);
    const body = text.slice(bodyAt + '--- stdout ---\n'.length);
    const marker =
      /\n\[… (\d+) characters omitted from the middle of stdout; re-run with a narrower command \(grep, head, tail, sed -n\) to see them …\]\n/.exec(
        body,
      );
    expect(marker).not.toBeNull();
    const omitted = Number(marker![1]);
    const head = body.slice(0, marker!.index);
    const tail = body.slice(marker!.index + marker![0].length);
    expect(head.startsWith('HEAD-MARKER\n0123456789\n')).toBe(true);
    expect(tail.endsWith('0123456789\nTAIL-MARKER\n') || tail.endsWith('TAIL-MARKER\n')).toBe(true);
    expect(expected.startsWith(head)).toBe(true);
    expect(expected.endsWith(tail)).toBe(true);
    expect(head.length + omitted + tail.length).toBe(expected.length);
    expect(header).toContain(`stdout: ${expected.length} characters (${omitted} omitted in the middle)`);
    // The full output stays available to the client and persistence.
    const client = clientOf(run.events, 'big');
    expect(client.stdoutLength).toBe(expected.length);
    expect(client.stdoutComplete).toBe(true);
    expect(client.stdout === expected).toBe(true);
  });

  it('keeps the omitted count exact when the raw capture itself is capped', async () => {
    const config = createShellToolConfig({ maxModelChars: 1_000, maxRawChars: 2_000 });
    const run = await runSteps(
      config,
      ws.sandbox,
      calls(['cap', 'execute', { command: "printf 'START'; head -c 9990 /dev/zero | tr '\\0' 'z'; printf 'END'" }]),
    );
    const text = run.seen('cap').text;
    const omitted = Number(/\[… (\d+) characters omitted from the middle of stdout/.exec(text)?.[1]);
    const body = text.slice(text.indexOf('--- stdout ---\n') + '--- stdout ---\n'.length);
    const shown = body.replace(/\n\[… \d+ characters omitted[^\n]*\]\n/, '');
    expect(body.length).toBeLessThanOrEqual(1_000);
    expect(shown.startsWith('STARTzzz')).toBe(true);
    expect(shown.endsWith('zzzEND')).toBe(true);
    expect(shown.length + omitted).toBe(9_998);
    const client = clientOf(run.events, 'cap');
    expect(client).toMatchObject({ stdoutLength: 9_998, stdoutComplete: false });
    expect(client.stdout).toMatch(/^STARTz+\n\[… 7998 characters not kept \(raw capture cap of 2000 characters\) …\]\nz+END$/);
  });

  it('reports an empty stderr as complete when only stdout hit the sandbox capture cap', async () => {
    const small = await createWorkspace({ maxOutputBytes: 4_096 });
    try {
      const run = await runSteps(
        shellToolConfig,
        small.sandbox,
        calls(
          ['outcap', 'execute', { command: "head -c 20000 /dev/zero | tr '\\0' 'y'" }],
          ['errcap', 'execute', { command: "head -c 20000 /dev/zero | tr '\\0' 'e' >&2" }],
        ),
      );
      // The sandbox cut stdout; stderr was empty, and an empty stream is all there was.
      expect(clientOf(run.events, 'outcap')).toMatchObject({ stderr: '', stderrLength: 0, stderrComplete: true });
      expect(clientOf(run.events, 'outcap').stdoutLength).toBe(20_000);
      // And the other way round.
      expect(clientOf(run.events, 'errcap')).toMatchObject({ stdout: '', stdoutLength: 0, stdoutComplete: true });
      expect(clientOf(run.events, 'errcap').stderrLength).toBe(20_000);
    } finally {
      await small.dispose();
    }
  });

  it('kills a command past its timeout and reports it as a result with the partial output', async () => {
    const run = await runSteps(
      shellToolConfig,
      ws.sandbox,
      calls(['slow', 'execute', { command: 'echo started; sleep 20; echo never', timeout: 0.4 }]),
    );
    const text = run.seen('slow').text;
    expect(run.seen('slow').type).toBe('text');
    expect(text).toMatch(/TIMED OUT after 400 ms: the command and its child processes were killed/);
    expect(text).toContain('started');
    expect(text).not.toContain('never');
    expect(clientOf(run.events, 'slow')).toMatchObject({ timedOut: true, timeoutMs: 400 });
  });

  it('fails at the execution stage at timeout + grace when the sandbox never answers', async () => {
    let sawSignal: AbortSignal | undefined;
    let askedTimeout: number | undefined;
    const never = (): Promise<never> => new Promise<never>(() => undefined);
    // The one allowed fake: a sandbox that never answers.
    const silent: ISandbox = {
      type: 'node',
      root: ws.root,
      ls: never,
      readFile: never,
      writeFile: never,
      editFile: never,
      glob: never,
      grep: never,
      exec: (_command, options) => {
        sawSignal = options?.signal;
        askedTimeout = options?.timeoutMs;
        return never();
      },
    };
    const config = createShellToolConfig({ graceMs: 250 });
    const started = Date.now();
    const run = await runSteps(config, silent, calls(['hang', 'execute', { command: 'sleep 1000', timeout: 0.15 }]));
    const elapsed = Date.now() - started;
    const seen = run.seen('hang');
    expect(seen.type).toBe('error-text');
    expect(seen.text).toMatch(
      /^\[execution\] execute: no answer from the sandbox within the hard deadline of 400 ms \(timeout 150 ms \+ 250 ms grace\)/,
    );
    expect(askedTimeout).toBe(150);
    expect(elapsed).toBeGreaterThanOrEqual(400);
    // The sandbox was told to stop the command when the deadline fired.
    expect(sawSignal?.aborted).toBe(true);
    const event = run.events.find((e) => e.type === 'tool-result');
    expect(event).toMatchObject({ error: { stage: 'execution' } });
  });

  it('emits heartbeats at the configured period while a command runs, never into the model context', async () => {
    const period = 60;
    const run = await runSteps(shellToolConfig, ws.sandbox, calls(['hb', 'execute', { command: 'sleep 0.6' }]), {
      heartbeatIntervalMs: period,
    });
    const call = run.events.find((e) => e.type === 'tool-call')!;
    const result = run.events.find((e) => e.type === 'tool-result')!;
    const beats = run.events.filter((e) => e.type === 'heartbeat');
    const span = result.at - call.at;
    // Never faster than the period, and present throughout a 600 ms command (about 10 beats; a
    // loaded machine can delay timers, so the lower bound is loose).
    expect(beats.length).toBeLessThanOrEqual(Math.ceil(span / period) + 1);
    expect(beats.length).toBeGreaterThanOrEqual(3);
    expect(beats[0]!.at - call.at).toBeGreaterThanOrEqual(period - 15);
    // The mean gap is the period (single gaps jitter when a loaded machine delays one timer).
    const meanGap = (beats.at(-1)!.at - beats[0]!.at) / (beats.length - 1);
    expect(meanGap).toBeGreaterThanOrEqual(period - 10);
    expect(meanGap).toBeLessThanOrEqual(period * 3);
    expect(beats.at(-1)!.at).toBeLessThanOrEqual(result.at);
    expect(beats.every((b) => b.type === 'heartbeat' && b.toolCallId === 'hb')).toBe(true);
    expect(JSON.stringify(run.model.calls.at(-1)?.prompt)).not.toContain('heartbeat');
  });

  it('a stop mid-command kills the whole process tree', async () => {
    // A plain process group (no PID namespace), so `$$` and `$!` are host pids this test can check.
    const plain = await createWorkspace({ isolation: 'off', pidNamespace: false });
    try {
      const controller = new AbortController();
      const command = 'sleep 30 & echo $! > bg.pid; echo $$ > sh.pid; echo ready; wait';
      const pending = runSteps(createShellToolConfig(), plain.sandbox, calls(['stop', 'execute', { command }]), {
        abortSignal: controller.signal,
      });
      pending.catch(() => undefined);
      // Abort as soon as the command said it is ready (the files are written before the echo).
      const deadline = Date.now() + 10_000;
      // sh.pid is written last; the redirection creates it before echo fills it, so wait for its number.
      const written = () =>
        existsSync(join(plain.root, 'sh.pid')) && /^\d+\n$/.test(readFileSync(join(plain.root, 'sh.pid'), 'utf8'));
      while (!written() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const bg = Number(await readFile(join(plain.root, 'bg.pid'), 'utf8'));
      const sh = Number(await readFile(join(plain.root, 'sh.pid'), 'utf8'));
      expect(pidAlive(bg)).toBe(true);
      expect(pidAlive(sh)).toBe(true);
      controller.abort();
      await expect(pending).rejects.toThrow();
      const gone = Date.now() + 5_000;
      while ((pidAlive(bg) || pidAlive(sh)) && Date.now() < gone) await new Promise((r) => setTimeout(r, 25));
      expect(pidAlive(bg)).toBe(false);
      expect(pidAlive(sh)).toBe(false);
    } finally {
      await plain.dispose();
    }
  });
});

describe('execute through streamText', () => {
  it('runs unchanged and streams chunks to the client while the model gets one bounded view', async () => {
    const events: RuntimeEvent[] = [];
    const set = await resolveToolSet({ configs: [shellToolConfig], services: { sandbox: ws.sandbox } });
    const model = scriptedModel([
      { toolCalls: [{ id: 's1', toolName: 'execute', input: { command: 'for i in 1 2 3; do echo tick $i; sleep 0.05; done' } }] },
      { text: 'ok' },
    ]);
    const result = streamText({
      model,
      tools: createAiTools(set, { onEvent: (e) => events.push(e) }),
      prompt: 'go',
      stopWhen: stepCountIs(3),
    });
    expect(await result.text).toBe('ok');
    const live = events
      .filter((e) => e.type === 'tool-output')
      .map((e) => (e.type === 'tool-output' ? e.chunk : ''))
      .join('');
    expect(live).toBe('tick 1\ntick 2\ntick 3\n');
    expect(events.filter((e) => e.type === 'tool-output').length).toBeGreaterThanOrEqual(2);
    expect(String(lastToolResult(model, 's1')?.output.value)).toMatch(
      /^exit code: 0 \| duration: .*\n--- stdout ---\ntick 1\ntick 2\ntick 3\n$/s,
    );
  });
});
