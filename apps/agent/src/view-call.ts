import { resolve } from 'node:path';
import { findSavedCall } from '@aibuddy/compactor';
import type { SavedCall } from '@aibuddy/compactor';
import type { ParsedCommand } from './args.js';
import { defaultDataDir } from './data-dir.js';
import { AgentStartupError } from './errors.js';

/** The full text of a saved raw output, as a person wants to read it. */
export function rawOutputText(record: Pick<SavedCall, 'output'>): string {
  const output = record.output as { stdout?: unknown; stderr?: unknown } | string | null;
  if (typeof output === 'string') return output;
  if (output && typeof output === 'object' && typeof output.stdout === 'string') {
    // Command output: stdout as printed, then stderr (the way the terminal showed it).
    const stderr =
      typeof output.stderr === 'string' && output.stderr !== ''
        ? `${output.stdout.endsWith('\n') || output.stdout === '' ? '' : '\n'}--- stderr ---\n${output.stderr}`
        : '';
    return output.stdout + stderr;
  }
  return `${JSON.stringify(output, null, 2)}\n`;
}

/** The raw input of a saved call: a string as it is, anything else as indented JSON. */
export function rawInputText(record: Pick<SavedCall, 'input'>): string {
  return typeof record.input === 'string' ? record.input : `${JSON.stringify(record.input, null, 2)}\n`;
}

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
  else io.stdout.write(parsed.part === 'input' ? rawInputText(found) : rawOutputText(found));
  return 0;
}
