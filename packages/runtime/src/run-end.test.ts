import { NoSuchToolError } from 'ai';
import { describe, expect, it } from 'vitest';
import { ToolError } from '@aibuddy/registry';
import { refusedCallEvents, runEndOf } from './run-end.js';

const base = { streamAborted: false, steps: 2, maxSteps: 40, chunkTimeoutMs: 120_000 };

describe('runEndOf', () => {
  it('completes when nothing went wrong', () => {
    expect(runEndOf({ ...base, lastFinishReason: 'stop' })).toEqual({ status: 'completed' });
  });

  it('says a stop of the run was a stop, with its reason, at the execution stage', () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped by the user (SIGINT)'));
    expect(runEndOf({ ...base, signal: controller.signal, streamAborted: true })).toEqual({
      status: 'aborted',
      error: { stage: 'execution', message: '[execution] the run was stopped: stopped by the user (SIGINT)' },
    });
  });

  it('explains a chunk timeout: heartbeats off, or a slow model or tool, with the host-given fix', () => {
    const timeout = {
      ...base,
      streamAborted: true,
      streamAbortReason: 'Chunk timeout: no chunk in 1000ms',
      chunkTimeoutMs: 1000,
    };
    const off = runEndOf({ ...timeout, heartbeatsOff: true, fixes: { heartbeatsOff: 'unset X.' } });
    expect(off.status).toBe('aborted');
    expect(off.error?.message).toMatch(
      /^\[execution\] the stream's chunk timeout of 1 s passed with no chunk \(Chunk timeout: .*\).*heartbeats are disabled.*Fix: unset X\.$/,
    );
    expect(runEndOf(timeout).error?.message).toMatch(/Fix: raise the chunk timeout/);
    // The run's own stop wins over the timeout wording.
    const controller = new AbortController();
    controller.abort();
    expect(runEndOf({ ...timeout, signal: controller.signal }).error?.message).toMatch(/the run was stopped/);
  });

  it('fails with the stage of the error, or at the model stage when the step limit cut the run', () => {
    const denied = new ToolError('no', { stage: 'authorization', toolName: 'execute' });
    expect(runEndOf({ ...base, failure: { error: denied } })).toEqual({
      status: 'failed',
      error: { stage: 'authorization', message: denied.message },
    });
    expect(runEndOf({ ...base, lastFinishReason: 'tool-calls', steps: 40 })).toEqual({
      status: 'failed',
      error: { stage: 'model', message: '[model] the run reached its limit of 40 model calls before the model finished.' },
    });
  });
});

describe('refusedCallEvents', () => {
  it('reports a call the SDK refused as a call and a result, the model view being what the SDK sends', () => {
    const error = new NoSuchToolError({ toolName: 'nope', availableTools: ['ls'] });
    const [call, result] = refusedCallEvents({ toolCallId: 'c1', toolName: 'nope', input: { a: 1 }, error });
    expect(call).toEqual({ type: 'tool-call', toolCallId: 'c1', toolName: 'nope', input: { a: 1 } });
    expect(result).toMatchObject({
      type: 'tool-result',
      model: { type: 'error-text', value: error.message },
      error: { stage: 'discovery' },
      durationMs: 0,
    });
    expect(result.error?.message).toMatch(/^\[discovery\] /);
  });
});
