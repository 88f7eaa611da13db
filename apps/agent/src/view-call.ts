import { resolve } from 'node:path';
import { defaultDataDir, findSavedCall, savedCallText } from '@aibuddy/compactor';
import type { SavedCall } from '@aibuddy/compactor';
import type { ParsedCommand } from './args.js';
import { AgentStartupError } from './errors.js';

/**
 * `aibuddy view-call`: prints the raw output (or, with `--part input`, the raw input) of a saved
 * call — compacted or not — of a persisted task (with `--json`, the whole record). Without
 * `--task-id` every task of the data dir is searched. Resolves with the exit code.
 */
export async function viewCall(
  parsed: Extract<ParsedCommand, { command: 'view-call' }>,
  io: { stdout: NodeJS.WritableStream },
): Promise<number> {
  const dataDir = resolve(parsed.dataDir ?? defaultDataDir(resolve(parsed.workspace ?? process.cwd())));
  let found: SavedCall | undefined;
  try {
    found = await findSavedCall({ dataDir, toolCallId: parsed.toolCallId, taskId: parsed.taskId });
  } catch (error) {
    throw new AgentStartupError('projection', `the saved calls under ${dataDir} cannot be read: ${(error as Error).message}`, {
      fix: 'remove the broken file named above, or pass the --data-dir the run printed.',
      cause: error,
    });
  }
  if (!found) {
    throw new AgentStartupError(
      'projection',
      `no saved result for call "${parsed.toolCallId}"${parsed.taskId ? ` of task ${parsed.taskId}` : ''} under ${dataDir}.`,
      {
        fix: 'use a call id from the run and the task id it printed, with the --data-dir (or --workspace) of the run; "aibuddy tasks" lists the tasks.',
      },
    );
  }
  if (parsed.json) io.stdout.write(`${JSON.stringify(found.record, null, 2)}\n`);
  else io.stdout.write(savedCallText(found, parsed.part));
  return 0;
}
