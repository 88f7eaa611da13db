import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEvents, replay, runCli, tempDir, workspaceIn } from './helpers.js';

function setUp() {
  const dir = tempDir();
  const workspace = workspaceIn(dir);
  mkdirSync(join(workspace, 'data'), { recursive: true });
  writeFileSync(join(workspace, 'data', 'keep.txt'), 'precious\n');
  const model = replay(dir, [
    { toolCalls: [{ toolName: 'execute', input: { command: 'rm -rf data' }, id: 'wipe' }] },
    { text: 'done' },
  ]);
  return { dir, workspace, model, events: join(dir, 'events.jsonl') };
}

describe('confirmation of high-impact calls', { timeout: 120_000 }, () => {
  it('--no refuses: the file is untouched and the model is told the call was denied', async () => {
    const { workspace, model, events } = setUp();
    const r = await runCli(['run', 'clean up', '--model', model, '--workspace', workspace, '--events', events, '--no']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(workspace, 'data', 'keep.txt'), 'utf8')).toBe('precious\n');
    const log = readEvents(events);
    expect(log.find((e) => e.type === 'confirm-request')).toMatchObject({
      toolCallId: 'wipe',
      target: 'data',
      scope: expect.any(String),
      impact: expect.any(String),
    });
    expect(log.find((e) => e.type === 'confirm-decision')).toMatchObject({ toolCallId: 'wipe', approved: false });
    expect(log.some((e) => e.type === 'tool-output')).toBe(false);
    const result = log.find((e) => e.type === 'tool-result' && e.toolCallId === 'wipe')!;
    expect(JSON.stringify(result.model)).toMatch(/denied|reject/i);
    expect(r.stdout).toMatch(/rejected/);
  });

  it('with no terminal and neither --yes nor --no, nobody can answer: refused the same way', async () => {
    const { workspace, model, events } = setUp();
    const r = await runCli(['run', 'clean up', '--model', model, '--workspace', workspace, '--events', events]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/confirm: +nobody/);
    expect(existsSync(join(workspace, 'data', 'keep.txt'))).toBe(true);
    expect(readEvents(events).find((e) => e.type === 'confirm-decision')).toMatchObject({ approved: false });
  });

  it('--yes approves: the command runs', async () => {
    const { workspace, model, events } = setUp();
    const r = await runCli(['run', 'clean up', '--model', model, '--workspace', workspace, '--events', events, '--yes']);
    expect(r.code).toBe(0);
    expect(existsSync(join(workspace, 'data'))).toBe(false);
    expect(readEvents(events).find((e) => e.type === 'confirm-decision')).toMatchObject({ toolCallId: 'wipe', approved: true });
  });
});
