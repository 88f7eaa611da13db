import { describe, expect, it } from 'vitest';
import { formatExecuteModelView } from './exec-result.js';
import type { ExecuteOutput } from './exec-result.js';
import { headTail } from './model-view.js';
import { captureString } from './output-capture.js';

function output(stdout: string, stderr = ''): ExecuteOutput {
  return {
    command: 'x',
    cwd: '.',
    exitCode: 0,
    signal: null,
    stdout,
    stderr,
    stdoutLength: stdout.length,
    stderrLength: stderr.length,
    stdoutComplete: true,
    stderrComplete: true,
    timedOut: false,
    stopped: false,
    timeoutMs: 1000,
    durationMs: 12,
  };
}

describe('the execute model view', () => {
  it('shows short output whole', () => {
    const view = formatExecuteModelView(output('a\nb\n'), 30_000);
    expect(view.text).toBe('exit code: 0 | duration: 12 ms\nstdout: 4 characters; stderr: 0 characters\n--- stdout ---\na\nb\n');
    expect(view.stdoutOmitted).toBe(0);
  });

  it('says when there was no output', () => {
    expect(formatExecuteModelView(output(''), 30_000).text).toMatch(/\(no output\)$/);
  });

  it('keeps head and tail of both streams within the budget, counting what it omits exactly', () => {
    for (const [outLength, errLength, budget] of [
      [100_000, 0, 30_000],
      [100_000, 100_000, 30_000],
      [50, 100_000, 5_000],
      [100_000, 40, 5_000],
      [31_000, 0, 30_000],
    ] as const) {
      const stdout = Array.from({ length: outLength }, (_, i) =>
        i % 50 === 49 ? '\n' : String.fromCharCode(97 + (i % 26)),
      ).join('');
      const stderr = 'E'.repeat(errLength);
      const view = formatExecuteModelView(output(stdout, stderr), budget);
      expect(view.text.length - view.header.length).toBeLessThanOrEqual(budget);
      const shownOut = outLength - view.stdoutOmitted;
      const shownErr = errLength - view.stderrOmitted;
      expect(shownOut).toBeGreaterThan(0);
      if (errLength > 0) expect(shownErr).toBeGreaterThan(0);
      expect(view.header).toContain(`stdout: ${outLength} characters`);
    }
  });

  it('never splits a surrogate pair and keeps the count exact', () => {
    const text = '😀'.repeat(10_000); // 20,000 UTF-16 units
    const view = headTail(captureString(text, 1_000), 1_000, 'stdout');
    const [head, tail] = view.text.split(/\n\[… \d+ characters omitted[^\n]*\]\n/);
    expect(head!.length % 2).toBe(0);
    expect(tail!.length % 2).toBe(0);
    expect(head!.length + tail!.length + view.omitted).toBe(text.length);
    expect(view.text.length).toBeLessThanOrEqual(1_000);
  });

  it('reports timeouts and stops in the header', () => {
    const timed = formatExecuteModelView(
      { ...output('partial'), timedOut: true, exitCode: null, signal: 'SIGTERM' },
      30_000,
    ).text;
    expect(timed).toMatch(
      /^exit code: none \(killed by SIGTERM\) \| duration: 12 ms\nTIMED OUT after 1.00 s: the command and its child processes were killed/,
    );
    const stopped = formatExecuteModelView({ ...output(''), stopped: true }, 30_000).text;
    expect(stopped).toContain('STOPPED by the user');
  });
});
