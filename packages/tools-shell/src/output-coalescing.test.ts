// Live output coalescing and exec input errors (issue 13): a command writing in tiny pieces yields
// a bounded number of `tool-output` events whose concatenation is exactly its output; a NUL byte
// or an oversized command fails at the parameters stage before any confirmation is asked.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createConfirmationGate } from '@aibuddy/runtime';
import { calls, createWorkspace, runSteps } from '@aibuddy/tool-harness';
import type { Workspace } from '@aibuddy/tool-harness';
import { createShellToolConfig, shellToolConfig } from './shell-config.js';
import { OutputCoalescer } from './output-coalescer.js';
import { createExecuteTool, EXECUTE_MAX_COMMAND_BYTES } from './execute-tool.js';

let ws: Workspace;
beforeAll(async () => {
  ws = await createWorkspace({ isolation: 'off' });
});
afterAll(async () => {
  await ws.dispose();
});

describe('OutputCoalescer', () => {
  it('joins chunks within the interval and sends a full buffer at once', () => {
    vi.useFakeTimers();
    try {
      const sent: string[] = [];
      const coalescer = new OutputCoalescer((chunk) => sent.push(chunk), 40, 10);
      for (const c of 'abc') coalescer.push(c);
      vi.advanceTimersByTime(39);
      expect(sent).toEqual([]); // waiting for the interval
      vi.advanceTimersByTime(1);
      expect(sent).toEqual(['abc']);
      coalescer.push('0123456789AB'); // over the size: sent at once
      expect(sent).toEqual(['abc', '0123456789AB']);
      coalescer.push('tail');
      coalescer.flush();
      expect(sent.join('')).toBe('abc0123456789ABtail');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('execute: live output', () => {
  /** A node script writing `n` single bytes, one per timer tick (about 1 ms apart). */
  const tinyWrites = (n: number) =>
    `node -e 'let i = 0; const t = setInterval(() => { process.stdout.write(String(i % 10)); if (++i === ${n}) clearInterval(t); }, 1)'`;
  const digits = (n: number) => Array.from({ length: n }, (_, i) => String(i % 10)).join('');

  it('1,500 one-byte writes become a bounded number of events that add up to every byte', async () => {
    // `node -e` runs inline code: the classifier asks for it unless an allow rule covers it.
    const run = await runSteps(
      createShellToolConfig({ allow: ['node -e'] }),
      ws.sandbox,
      calls(['tiny', 'execute', { command: tinyWrites(1500) }]),
    );
    const call = run.events.find((e) => e.type === 'tool-call')!;
    const result = run.events.find((e) => e.type === 'tool-result')!;
    const outputs = run.events.filter((e) => e.type === 'tool-output');
    expect(outputs.map((e) => (e.type === 'tool-output' ? e.chunk : '')).join('')).toBe(digits(1500));
    // At most one event per 50 ms interval (plus the final flush), however many writes there were.
    expect(outputs.length).toBeLessThanOrEqual(Math.ceil((result.at - call.at) / 50) + 2);
    expect(outputs.length).toBeLessThan(1500 / 4);
    expect(outputs.every((e) => e.at <= result.at)).toBe(true);
  });

  it('control: with coalescing off, the same kind of command yields about one event per write', async () => {
    const config = createShellToolConfig({ outputCoalesceMs: 0, allow: ['node -e'] });
    const run = await runSteps(config, ws.sandbox, calls(['raw', 'execute', { command: tinyWrites(300) }]));
    const outputs = run.events.filter((e) => e.type === 'tool-output');
    expect(outputs.map((e) => (e.type === 'tool-output' ? e.chunk : '')).join('')).toBe(digits(300));
    expect(outputs.length).toBeGreaterThan(50);
  });
});

describe('execute: sandbox notices', () => {
  it('a hook planted by the command is undone, and the model is told', async () => {
    const command =
      "git init -q repo && printf '#!/bin/sh\\necho planted\\n' > repo/.git/hooks/pre-commit && chmod +x repo/.git/hooks/pre-commit && echo ok";
    // Writing into .git needs a person's approval; approved here, so that only the sandbox's guard stands in the way.
    const confirmation = createConfirmationGate({ ask: async () => ({ approved: true }) });
    const run = await runSteps(shellToolConfig, ws.sandbox, calls(['plant', 'execute', { command }]), { confirmation });
    expect(run.seen('plant').text).toMatch(/SANDBOX: repo\/\.git\/hooks\/pre-commit was planted by the command/);
    expect(readdirSync(join(ws.root, 'repo', '.git', 'hooks'))).not.toContain('pre-commit');
  });
});

describe('execute: input errors at the parameters stage, before confirmation', () => {
  function gate() {
    const asked: string[] = [];
    return {
      asked,
      gate: createConfirmationGate({ ask: async (request) => (asked.push(String(request.target)), { approved: true }) }),
    };
  }

  /** Runs `command` (which would create `ran`) under a gate that approves; returns the model's text. */
  async function refusedBeforeAsking(id: string, command: string, ran: string): Promise<string> {
    const { asked, gate: confirmation } = gate();
    const run = await runSteps(shellToolConfig, ws.sandbox, calls([id, 'execute', { command }]), { confirmation });
    expect(run.events.find((e) => e.type === 'tool-result')).toMatchObject({ error: { stage: 'parameters' } });
    expect(asked).toEqual([]);
    expect(readdirSync(ws.root)).not.toContain(ran);
    return run.seen(id).text;
  }

  it('a NUL byte in a high-impact command', async () => {
    expect(await refusedBeforeAsking('nul', 'rm -rf nul-dir\0; touch nul-ran', 'nul-ran')).toMatch(/NUL byte/);
  });

  it('a lone surrogate in a high-impact command (a cut emoji): it would run as U+FFFD, another command than approved', async () => {
    const text = await refusedBeforeAsking('half', 'rm -rf half-dir; touch half-ran; echo "\ud83d"', 'half-ran');
    expect(text).toMatch(/lone surrogate \(U\+D83D at character \d+\)/);
  });

  it('a 3 MB command: a clear parameters error instead of spawn E2BIG', async () => {
    const command = `rm -rf big-dir; touch big-ran # ${'x'.repeat(3 * 1024 * 1024)}`;
    const text = await refusedBeforeAsking('big', command, 'big-ran');
    expect(text).toMatch(new RegExp(`over ${EXECUTE_MAX_COMMAND_BYTES} bytes.*write the script to a file`));
    expect(text).not.toMatch(/E2BIG/);
  });

  it('a maximum timeout past the 2^31 ms timer range is refused when the tool is made', () => {
    expect(() => createExecuteTool(ws.sandbox, { maxTimeoutMs: 2 ** 31 })).toThrow(/longest timer Node can hold/);
    expect(() => createExecuteTool(ws.sandbox, { maxTimeoutMs: 600_000 })).not.toThrow();
  });
});
