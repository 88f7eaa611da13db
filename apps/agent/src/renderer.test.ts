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
    r.event({ type: 'tool-result', toolCallId: 'c1', toolName: 'execute', client: {}, model: { type: 'text', value: 'exit code: 0' }, durationMs: 1500 });
    r.event({ type: 'tool-call', toolCallId: 'c2', toolName: 'write_file', input: { path: 'a' } });
    r.event({
      type: 'tool-result', toolCallId: 'c2', toolName: 'write_file', client: {}, model: { type: 'error-text', value: '[authorization] denied' },
      error: { stage: 'authorization', message: '[authorization] write_file: denied' }, durationMs: 3,
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
});
