import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelMessage } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findSavedCall } from './find-call.js';
import { createResultStore } from './result-store.js';
import { createTaskStore } from './task-store.js';
import type { TaskRecord } from './task-store.js';
import { storedResult } from './__fixtures__/stored-result.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'task-store-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const task = (taskId: string, updatedAt: string): TaskRecord => ({
  version: 1,
  taskId,
  workspace: '/ws',
  task: 'do it',
  startedAt: updatedAt,
  updatedAt,
  runs: 1,
  steps: 2,
  status: 'completed',
});

describe('createTaskStore', () => {
  it('round-trips tasks, histories and raw calls; lists tasks newest first', async () => {
    const store = createTaskStore({ dataDir });
    await store.writeTask(task('Task.A', '2026-01-01T00:00:00.000Z'));
    await store.writeTask(task('task-b', '2026-02-01T00:00:00.000Z'));
    const messages: ModelMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'ls', input: { path: '.' } }] },
    ];
    await store.writeHistory('Task.A', messages);
    store.hooks.onToolExecutionEnd({
      toolCallId: 'c1',
      toolName: 'ls',
      input: { path: '.' },
      output: ['a'],
      durationMs: 3,
      taskId: 'Task.A',
    });
    store.hooks.onToolExecutionEnd({
      toolCallId: 'c2',
      toolName: 'ls',
      input: {},
      error: { stage: 'parameters', message: '[parameters] bad' },
      durationMs: 1,
      taskId: 'Task.A',
    });
    await store.whenIdle();
    expect((await store.listTasks()).map((t) => t.taskId)).toEqual(['task-b', 'Task.A']);
    expect(await store.readHistory('Task.A')).toEqual(messages);
    expect(await store.readHistory('task-b')).toBeUndefined();
    expect(await store.readCall('Task.A', 'c1')).toMatchObject({ toolName: 'ls', input: { path: '.' }, output: ['a'] });
    expect(await store.readCall('Task.A', 'c2')).toMatchObject({ error: { stage: 'parameters' } });
    // Found without the task id, raw (not compacted).
    expect(await findSavedCall({ dataDir, toolCallId: 'c1' })).toMatchObject({
      taskId: 'Task.A',
      compacted: false,
      output: ['a'],
    });
  });

  it('finds a compacted call first, and refuses a task folder replaced by a link', async () => {
    const results = createResultStore({ dataDir });
    await results.write(storedResult('big', 't', 'raw'));
    expect(await findSavedCall({ dataDir, toolCallId: 'big' })).toMatchObject({ taskId: 't', compacted: true, output: 'raw' });

    const outside = join(dataDir, '..', `${dataDir.split('/').pop()}-outside`);
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, 'keep'), 'x');
    await mkdir(join(dataDir, 'tasks'), { recursive: true });
    await symlink(outside, join(dataDir, 'tasks', 'evil'));
    const store = createTaskStore({ dataDir });
    await expect(store.writeTask(task('evil', '2026-01-01T00:00:00.000Z'))).rejects.toThrow(/symlink/);
    expect(await readdir(outside)).toEqual(['keep']);
    await rm(outside, { recursive: true, force: true });
  });

  it('refuses a record of another version with the path and the fix', async () => {
    const store = createTaskStore({ dataDir });
    await store.writeTask(task('t1', '2026-01-01T00:00:00.000Z'));
    await writeFile(join(store.root, 't1', 'task.json'), JSON.stringify({ ...task('t1', 'x'), version: 7 }));
    await expect(store.readTask('t1')).rejects.toThrow(/version 7.*Remove the file/);
  });
});
