import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, readEvents, replay, runCli, tempDir, workspaceIn } from './helpers.js';

// A 3 s silent command under a 1 s chunk timeout: heartbeats (preliminary tool results) keep the
// stream alive; without them the AI SDK's chunk timeout aborts the call, at the execution stage.
function setUp() {
  const dir = tempDir();
  const events = join(dir, 'events.jsonl');
  const model = replay(dir, [
    { toolCalls: [{ toolName: 'execute', input: { command: 'sleep 3 && echo awake' }, id: 'sleepy' }] },
    { text: 'slept' },
  ]);
  const args = [
    'run',
    'sleep',
    '--model',
    model,
    '--workspace',
    workspaceIn(dir),
    '--data-dir',
    join(dir, 'state'),
    '--events',
    events,
    '--chunk-timeout',
    '1',
    '--yes',
  ];
  return { dir, events, args };
}

function noHeartbeatInModelRequests(log: Array<Record<string, any>>) {
  const requests = log.filter((e) => e.type === 'model-request');
  expect(requests.length).toBeGreaterThan(0);
  for (const request of requests) expect(JSON.stringify(request.messages)).not.toMatch(/heartbeat/i);
}

describe('heartbeats keep the stream under --chunk-timeout', { timeout: 60_000 }, () => {
  it('with AIBUDDY_HEARTBEAT_MS=200 a 3 s silent execute completes under --chunk-timeout 1', async () => {
    const { events, args } = setUp();
    const r = await runCli(args, { env: cleanEnv({ AIBUDDY_HEARTBEAT_MS: '200' }) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const log = readEvents(events);
    const result = log.find((e) => e.type === 'tool-result' && e.toolCallId === 'sleepy')!;
    expect(result.error).toBeUndefined();
    expect(JSON.stringify(result.model)).toContain('awake');
    expect(log.filter((e) => e.type === 'heartbeat' && e.toolCallId === 'sleepy').length).toBeGreaterThanOrEqual(10);
    expect(log.find((e) => e.type === 'run-end')).toMatchObject({ status: 'completed', steps: 2 });
    noHeartbeatInModelRequests(log);
  });

  it('with AIBUDDY_HEARTBEAT_MS=0 the silent call is aborted at the execution stage, saying why', async () => {
    const { events, args } = setUp();
    const r = await runCli(args, { env: cleanEnv({ AIBUDDY_HEARTBEAT_MS: '0' }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /\[execution\] the stream's chunk timeout of 1 s passed with no chunk .*heartbeats are disabled.*unset AIBUDDY_HEARTBEAT_MS, now 0/,
    );
    const log = readEvents(events);
    const result = log.find((e) => e.type === 'tool-result' && e.toolCallId === 'sleepy')!;
    expect(result.error).toMatchObject({ stage: 'execution' });
    expect(result.error.message).toMatch(/chunk timeout.*heartbeats are disabled/);
    // Stopped by the timeout, not by the command ending: well before its 3 s.
    const called = log.find((e) => e.type === 'tool-call' && e.toolCallId === 'sleepy')!;
    expect(result.time - called.time).toBeLessThan(2_900);
    expect(JSON.stringify(result)).not.toContain('awake');
    expect(log.find((e) => e.type === 'run-end')).toMatchObject({ status: 'aborted', error: { stage: 'execution' } });
    expect(log.some((e) => e.type === 'heartbeat')).toBe(false);
    noHeartbeatInModelRequests(log);
  });
});
