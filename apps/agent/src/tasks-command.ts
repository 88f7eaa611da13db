import { resolve } from 'node:path';
import { createTaskStore, defaultDataDir } from '@aibuddy/compactor';
import type { TaskRecord } from '@aibuddy/compactor';
import type { ParsedCommand } from './args.js';
import { AgentStartupError } from './errors.js';

/**
 * `aibuddy tasks`: the persisted tasks of a workspace (its default data dir) or of `--data-dir`,
 * most recent first: id, started, steps, last status. `--json` prints the records.
 */
export async function tasksCommand(
  parsed: Extract<ParsedCommand, { command: 'tasks' }>,
  io: { stdout: NodeJS.WritableStream },
): Promise<number> {
  const dataDir = resolve(parsed.dataDir ?? defaultDataDir(resolve(parsed.workspace ?? process.cwd())));
  let tasks: TaskRecord[];
  try {
    tasks = await createTaskStore({ dataDir }).listTasks();
  } catch (error) {
    throw new AgentStartupError('projection', `the tasks under ${dataDir} cannot be read: ${(error as Error).message}`, {
      fix: 'remove the broken file named above, or pass the --data-dir the run printed.',
      cause: error,
    });
  }
  if (parsed.json) {
    io.stdout.write(
      `${JSON.stringify(
        tasks.map(({ version: _v, ...t }) => t),
        null,
        2,
      )}\n`,
    );
    return 0;
  }
  if (tasks.length === 0) {
    io.stdout.write(`no persisted tasks under ${dataDir}\n`);
    return 0;
  }
  const rows = [['id', 'started', 'steps', 'status'], ...tasks.map((t) => [t.taskId, t.startedAt, String(t.steps), t.status])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const row of rows)
    io.stdout.write(
      `${row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd()}\n`,
    );
  return 0;
}
