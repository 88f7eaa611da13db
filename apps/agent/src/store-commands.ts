import { resolve } from 'node:path';
import { createTaskStore, defaultDataDir, findSavedCall, savedCallText } from '@aibuddy/compactor';
import type { ParsedCommand } from './args.js';
import { AgentStartupError } from './errors.js';
import { escapeControl } from './terminal-text.js';

/** The data dir the commands read: `--data-dir`, else the default of `--workspace` (or the current folder). */
function dataDirOf(parsed: { dataDir: string | undefined; workspace: string | undefined }): string {
  return resolve(parsed.dataDir ?? defaultDataDir(resolve(parsed.workspace ?? process.cwd())));
}

/** Reads from the store; a broken record becomes a `projection` error naming the fix. */
async function read<T>(what: string, dataDir: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new AgentStartupError('projection', `the ${what} under ${dataDir} cannot be read: ${(error as Error).message}`, {
      fix: 'remove the broken file named above, or pass the --data-dir the run printed.',
      cause: error,
    });
  }
}

/**
 * `aibuddy view-call`: prints the raw output (or, with `--part input`, the raw input) of a saved
 * call — compacted or not — of a persisted task (with `--json`, the whole record). Without
 * `--task-id` every task of the data dir is searched. On a terminal, control characters are shown
 * escaped; into a pipe or a file the text is written byte for byte. Resolves with the exit code.
 */
export async function viewCall(
  parsed: Extract<ParsedCommand, { command: 'view-call' }>,
  io: { stdout: NodeJS.WritableStream },
): Promise<number> {
  const dataDir = dataDirOf(parsed);
  const { toolCallId, taskId } = parsed;
  const found = await read('saved calls', dataDir, () => findSavedCall({ dataDir, toolCallId, taskId }));
  if (!found) {
    throw new AgentStartupError(
      'projection',
      `no saved result for call "${toolCallId}"${taskId ? ` of task ${taskId}` : ''} under ${dataDir}.`,
      {
        fix: 'use a call id from the run and the task id it printed, with the --data-dir (or --workspace) of the run; "aibuddy tasks" lists the tasks.',
      },
    );
  }
  if (parsed.json) {
    io.stdout.write(`${JSON.stringify(found.record, null, 2)}\n`);
    return 0;
  }
  // Byte for byte into a pipe or a file; on a terminal, control characters are shown escaped: a
  // tool's output (a file the agent read, a web page) can carry sequences that rewrite the screen
  // or, with OSC 52, set the clipboard.
  const text = savedCallText(found, parsed.part);
  io.stdout.write((io.stdout as { isTTY?: boolean }).isTTY === true ? escapeControl(text) : text);
  return 0;
}

/**
 * `aibuddy tasks`: the persisted tasks of a workspace (its default data dir) or of `--data-dir`,
 * most recent first: id, started, steps, last status. `--json` prints the records.
 */
export async function tasksCommand(
  parsed: Extract<ParsedCommand, { command: 'tasks' }>,
  io: { stdout: NodeJS.WritableStream },
): Promise<number> {
  const dataDir = dataDirOf(parsed);
  const tasks = await read('tasks', dataDir, () => createTaskStore({ dataDir }).listTasks());
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
