import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, readEvents, runCli, tempDir } from './helpers.js';

const EVENT_TYPES = [
  'model-request',
  'tool-call',
  'tool-output',
  'heartbeat',
  'tool-result',
  'confirm-request',
  'confirm-decision',
  'compaction',
];

function toolResultsInPrompt(messages: any[]): any[] {
  return messages.filter((m) => m.role === 'tool').flatMap((m) => m.content.filter((p: any) => p.type === 'tool-result'));
}

describe('the built-in demo (no model, no key, no network)', { timeout: 120_000 }, () => {
  it('runs the whole system in a fresh temporary workspace, logs every event type, and exits 0', async () => {
    const cwd = tempDir('aibuddy-cwd-');
    const events = join(tempDir(), 'events.jsonl');
    const r = await runCli(['run', '--events', events], {
      cwd,
      env: cleanEnv({ AIBUDDY_HEARTBEAT_MS: '250' }),
      timeoutMs: 60_000,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);

    // The workspace is a fresh temporary folder, printed; the current folder is untouched.
    const workspace = /workspace: (\S+)/.exec(r.stdout)?.[1];
    expect(workspace).toMatch(/aibuddy-demo-/);
    expect(workspace).not.toBe(cwd);
    expect(readdirSync(cwd)).toEqual([]);
    expect(existsSync(join(workspace!, 'report.mjs'))).toBe(true);
    expect(existsSync(join(workspace!, 'build'))).toBe(false);

    const log = readEvents(events);
    const types = new Set(log.map((e) => e.type));
    for (const type of EVENT_TYPES) expect(types, `event type ${type}`).toContain(type);

    // Every tool call of the demo succeeded.
    const results = log.filter((e) => e.type === 'tool-result');
    expect(results.map((e) => e.toolCallId)).toEqual(
      expect.arrayContaining([
        'demo-write',
        'demo-edit',
        'demo-read',
        'demo-run',
        'demo-view',
        'demo-search',
        'demo-forecast',
        'demo-clean',
        'demo-unanalyzable',
      ]),
    );
    for (const e of results) expect(e.error, `${e.toolName} ${e.toolCallId}`).toBeUndefined();

    // Fields as the architecture fixes them.
    const request = log.find((e) => e.type === 'model-request')!;
    expect(request.step).toBe(0);
    expect(Array.isArray(request.messages)).toBe(true);
    expect(request.tools).toContain('tool_search');
    expect(request.tools).not.toContain('toolbox__get_forecast'); // deferred until found
    const afterSearch = log.filter((e) => e.type === 'model-request').find((e) => e.step === 6)!;
    expect(afterSearch.tools).toContain('toolbox__get_forecast');
    expect(log.find((e) => e.type === 'tool-call' && e.toolCallId === 'demo-edit')).toMatchObject({
      toolName: 'edit_file',
      input: { path: 'report.mjs' },
    });
    expect(log.find((e) => e.type === 'tool-output')).toMatchObject({ toolCallId: 'demo-run', stream: 'stdout' });
    expect(log.find((e) => e.type === 'heartbeat')).toMatchObject({ toolCallId: expect.any(String) });
    expect(log.find((e) => e.type === 'confirm-request')).toMatchObject({
      toolCallId: 'demo-clean',
      target: 'build',
      scope: expect.any(String),
      impact: expect.stringMatching(/deletes/i),
    });
    expect(log.find((e) => e.type === 'confirm-decision')).toMatchObject({ toolCallId: 'demo-clean', approved: true });
    // An allow rule at work (no confirmation for `node report.mjs`) and a command that could not be analyzed.
    expect(r.stdout).toMatch(/allow: .*"node report\.mjs" \[demo\]/);
    expect(log.filter((e) => e.type === 'confirm-request').map((e) => e.toolCallId)).toEqual(['demo-clean', 'demo-unanalyzable']);
    expect(log.find((e) => e.type === 'confirm-request' && e.toolCallId === 'demo-unanalyzable')).toMatchObject({
      impact: expect.stringMatching(/^Cannot be analyzed: it contains a case statement/),
    });
    expect(log.find((e) => e.type === 'compaction')).toMatchObject({
      toolCallId: 'demo-run',
      strategy: 'trim',
      pointer: expect.stringContaining('compacted_outputs'),
    });

    // `model` in tool-result is exactly what the model was sent in the next request.
    const forecast = results.find((e) => e.toolCallId === 'demo-forecast')!;
    const next = log.filter((e) => e.type === 'model-request').at(-1)!;
    const sent = toolResultsInPrompt(next.messages).find((p) => p.toolCallId === 'demo-forecast');
    expect(sent.output).toEqual(forecast.model);
    expect(forecast.model.value).toMatch(/day 1: .*°C/);
  });
});
