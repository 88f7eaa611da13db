import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CompactorError } from './errors.js';
import { openTaskHistory } from './task-history.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'task-history-'));
  dirs.push(dir);
  return dir;
}

const base = { taskId: 't1', workspace: '/ws', resume: false };

describe('openTaskHistory', () => {
  it('records a run on disk: running at start, the history after each step, the outcome at the end', async () => {
    const dir = dataDir();
    const history = await openTaskHistory({ ...base, dataDir: dir, task: 'first' });
    expect(history.initialMessages).toEqual([{ role: 'user', content: 'first' }]);
    expect(await history.store.readTask('t1')).toMatchObject({ status: 'running', runs: 1, steps: 0, task: 'first' });
    await history.onStepFinish({ response: { messages: [{ role: 'assistant', content: 'hello' }] } });
    expect(await history.store.readHistory('t1')).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'hello' },
    ]);
    await history.finish({ status: 'completed', steps: 1 });
    expect(await history.store.readTask('t1')).toMatchObject({ status: 'completed', steps: 1 });
  });

  it('keeps the calls of a stopped step, without results, so a resume can repair them', async () => {
    const dir = dataDir();
    const history = await openTaskHistory({ ...base, dataDir: dir, task: 'first' });
    history.observe({ type: 'tool-call', toolCallId: 'c1', toolName: 'execute', input: { command: 'sleep 9' } } as never);
    await history.finish({ status: 'aborted', steps: 1, error: { stage: 'execution', message: 'stopped' } });
    const saved = await history.store.readHistory('t1');
    expect(saved?.at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'execute', input: { command: 'sleep 9' } }],
    });
    expect(await history.store.readTask('t1')).toMatchObject({ status: 'aborted', error: { stage: 'execution' } });
  });

  it('resumes a persisted task: its history first, then the new task; runs and steps add up', async () => {
    const dir = dataDir();
    const first = await openTaskHistory({ ...base, dataDir: dir, task: 'first' });
    await first.onStepFinish({ response: { messages: [{ role: 'assistant', content: 'one' }] } });
    await first.finish({ status: 'completed', steps: 2 });
    const again = await openTaskHistory({ ...base, dataDir: dir, task: 'second', resume: true });
    expect(again.initialMessages.map((m) => m.content)).toEqual(['first', 'one', 'second']);
    await again.finish({ status: 'completed', steps: 1 });
    expect(await again.store.readTask('t1')).toMatchObject({ task: 'first', runs: 2, steps: 3 });
  });

  it('refuses to resume a task that does not exist, at the discovery stage, writing nothing', async () => {
    const dir = dataDir();
    const error = await openTaskHistory({ ...base, dataDir: dir, task: 'x', resume: true }).catch((e: unknown) => e);
    expect(CompactorError.isInstance(error)).toBe(true);
    expect((error as CompactorError).stage).toBe('discovery');
    expect((error as Error).message).toMatch(/^\[discovery\] there is no persisted task "t1" under .* to resume\. Fix: /);
    expect(await (await openTaskHistory({ ...base, dataDir: dir, task: 'y' })).store.listTasks()).toHaveLength(1);
  });

  it('names the execution stage and the fix when the data dir cannot be written', async () => {
    // A file where the data folder should be: nothing can be created under it.
    const file = join(dataDir(), 'not-a-folder');
    writeFileSync(file, '');
    const error = await openTaskHistory({ ...base, dataDir: file, task: 'x' }).catch((e: unknown) => e);
    expect(CompactorError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/^\[execution\] the task store under .*not-a-folder cannot be used: .*Fix: /);
  });

  it('fails at once, without hanging, where folders cannot be created at all (/proc)', async () => {
    // Node's own recursive mkdir loops forever there: mkdir answers ENOENT under an existing parent.
    const error = await openTaskHistory({ ...base, dataDir: '/proc/aibuddy-no-such/data', task: 'x' }).catch((e: unknown) => e);
    expect(CompactorError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^\[execution\] the task store under \/proc\/aibuddy-no-such\/data cannot be used: .*Fix: /,
    );
  }, 10_000);
});
