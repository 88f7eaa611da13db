import { describe, expect, it } from 'vitest';
import { createRenderer } from './renderer.js';

function capture() {
  let text = '';
  return { out: { write: (s: string) => (text += s), isTTY: false }, text: () => text };
}

describe('createRenderer', () => {
  it('streams text, shows calls, live output up to the limit, and results with their stage', () => {
    const c = capture();
    const r = createRenderer({ out: c.out, liveOutputLines: 2, elapsedEveryMs: 0 });
    r.text('Hello ');
    r.text('world.');
    r.event({ type: 'tool-call', toolCallId: 'c1', toolName: 'execute', input: { command: 'seq 5' } });
    r.event({ type: 'tool-output', toolCallId: 'c1', stream: 'stdout', chunk: '1\n2\n3\n' });
    r.event({ type: 'tool-output', toolCallId: 'c1', stream: 'stdout', chunk: '4\n5\n' });
    r.event({
      type: 'tool-result',
      toolCallId: 'c1',
      toolName: 'execute',
      client: {},
      model: { type: 'text', value: 'exit code: 0' },
      durationMs: 1500,
    });
    r.event({ type: 'tool-call', toolCallId: 'c2', toolName: 'write_file', input: { path: 'a' } });
    r.event({
      type: 'tool-result',
      toolCallId: 'c2',
      toolName: 'write_file',
      client: {},
      model: { type: 'error-text', value: '[authorization] denied' },
      error: { stage: 'authorization', message: '[authorization] write_file: denied' },
      durationMs: 3,
    });
    r.endStep();
    r.close();
    const text = c.text();
    expect(text).toContain('Hello world.\n→ execute {"command":"seq 5"} [c1]\n');
    expect(text).toContain('│ 1\n│ 2\n');
    expect(text).not.toContain('│ 3');
    expect(text).toContain('│ … 3 more lines not shown here');
    expect(text).toMatch(/✓ execute \(1\.5 s\) exit code: 0/);
    expect(text).toMatch(/✗ write_file \[authorization\] write_file: denied \(3 ms\)/);
  });

  it('prints the elapsed time of a long call', async () => {
    const c = capture();
    const r = createRenderer({ out: c.out, elapsedEveryMs: 30 });
    r.event({ type: 'tool-call', toolCallId: 'c1', toolName: 'execute', input: {} });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    r.close();
    expect(c.text()).toMatch(/… execute still running \(\d+ s\)/);
  });

  it('prints model- and tool-derived text with control characters escaped, never raw', () => {
    const c = capture();
    const r = createRenderer({ out: c.out, elapsedEveryMs: 0 });
    const esc = '\u001b[2K\u001b[1A';
    r.text(`model says ${esc}hi`);
    r.event({ type: 'tool-call', toolCallId: `c${esc}`, toolName: 'execute', input: { command: `printf '${esc}'` } });
    r.event({ type: 'tool-output', toolCallId: `c${esc}`, stream: 'stdout', chunk: `line\r${esc}overwritten\n` });
    r.event({
      type: 'confirm-request',
      toolCallId: 'c2',
      toolName: 'execute',
      target: `rm${esc}`,
      scope: 'workspace',
      impact: `deletes${esc}`,
    } as never);
    r.event({
      type: 'tool-result',
      toolCallId: `c${esc}`,
      toolName: 'execute',
      client: {},
      model: { type: 'text', value: `out${esc}` },
      error: { stage: 'execution', message: `[execution] execute: execute: failed${esc}..` },
      durationMs: 1,
    });
    r.close();
    const text = c.text();
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(text).toContain('model says \\x1b[2K\\x1b[1Ahi');
    expect(text).toContain('│ line\\r\\x1b[2K');
    expect(text).toContain('target: rm\\x1b[2K');
    expect(text).toContain('[execution] execute: failed\\x1b[2K\\x1b[1A.');
    expect(text).not.toContain('execute: execute:');
  });

  it('says "1 more line", not "1 more lines"', () => {
    const c = capture();
    const r = createRenderer({ out: c.out, liveOutputLines: 1, elapsedEveryMs: 0 });
    r.event({ type: 'tool-call', toolCallId: 'c1', toolName: 'execute', input: {} });
    r.event({ type: 'tool-output', toolCallId: 'c1', stream: 'stdout', chunk: '1\n2\n' });
    r.event({
      type: 'tool-result',
      toolCallId: 'c1',
      toolName: 'execute',
      client: { exitCode: 0, stdout: 'x' },
      model: { type: 'text', value: 'ok' },
      durationMs: 1,
    } as never);
    r.close();
    expect(c.text()).toContain('… 1 more line not shown');
  });

  it('counts the output a command wrote, not the part of it the capture kept', () => {
    const c = capture();
    const r = createRenderer({ out: c.out, elapsedEveryMs: 0 });
    r.event({ type: 'tool-call', toolCallId: 'big', toolName: 'execute', input: {} });
    r.event({
      type: 'tool-finished',
      toolCallId: 'big',
      toolName: 'execute',
      // A 1 GB output: the raw capture kept 2,000 characters of it (head, marker, tail).
      client: { exitCode: 0, stdout: 'y'.repeat(2_000), stdoutLength: 1_073_741_824, stderr: 'warn', stderrLength: 4 },
      durationMs: 1,
    } as never);
    r.close();
    expect(c.text()).toContain('1073741828 characters of output');
  });
});
