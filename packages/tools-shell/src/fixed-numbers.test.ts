import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ISandbox } from '@aibuddy/sandbox';
import { createExecuteTool, EXECUTE_GRACE_MS, EXECUTE_MAX_MODEL_CHARS } from './execute-tool.js';
import type { ExecuteOutput } from './exec-result.js';

// The design fixes the JS-side grace at 30 s beyond the sandbox timeout and the model's share of
// shell output at 30,000 characters: changing a default fails here.
afterEach(() => {
  vi.useRealTimers();
});

/** A sandbox that never answers (the case the grace exists for); only `exec` is reached. */
const silentSandbox = { exec: () => new Promise(() => undefined) } as unknown as ISandbox;

function context() {
  return {
    toolCallId: 'g1',
    signal: new AbortController().signal,
    taskId: undefined,
    services: {},
    emitOutput: () => undefined,
    heartbeat: () => undefined,
  };
}

describe('fixed numbers of execute', () => {
  it('abandons a call 30 s after its sandbox timeout, not a millisecond earlier', async () => {
    expect(EXECUTE_GRACE_MS).toBe(30_000);
    vi.useFakeTimers();
    const tool = createExecuteTool(silentSandbox);
    let settled: unknown;
    const call = Promise.resolve(tool.execute({ command: 'sleep 100', timeout: 1 }, context())).then(
      (v) => (settled = v),
      (e: unknown) => (settled = e),
    );
    await vi.advanceTimersByTimeAsync(1_000 + 29_999);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(String((settled as Error).message)).toMatch(/hard deadline of 31.0 s \(timeout 1.00 s \+ 30.0 s grace\)/);
  });

  it('keeps 30,000 characters of a long output for the model', () => {
    expect(EXECUTE_MAX_MODEL_CHARS).toBe(30_000);
    const tool = createExecuteTool(silentSandbox);
    const stdout = Array.from({ length: 2000 }, (_, i) => `row ${String(i).padStart(5, '0')} ${'x'.repeat(29)}`).join('\n');
    const output: ExecuteOutput = {
      command: 'print',
      cwd: '.',
      exitCode: 0,
      signal: null,
      stdout,
      stderr: '',
      stdoutLength: stdout.length,
      stderrLength: 0,
      stdoutComplete: true,
      stderrComplete: true,
      timedOut: false,
      stopped: false,
      timeoutMs: 1000,
      durationMs: 5,
    };
    const view = String(tool.toModelOutput!({ toolName: 'execute', toolCallId: 'g1', input: { command: 'print' }, output }));
    const kept = stdout
      .split('\n')
      .filter((line) => view.includes(line))
      .join('\n').length;
    expect(kept).toBeGreaterThan(29_000);
    expect(kept).toBeLessThanOrEqual(30_000);
  });
});
