import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { COMPACTED_OUTPUTS_DIR, createResultStore, safeName } from '@aibuddy/compactor';
import type { StoredResult } from '@aibuddy/compactor';
import type { ParsedCommand } from './args.js';
import { AgentStartupError } from './errors.js';

/** The full text of a stored raw output, as a person wants to read it. */
export function rawOutputText(record: StoredResult): string {
  const output = record.output as { stdout?: unknown; stderr?: unknown } | string | null;
  if (typeof output === 'string') return output;
  if (output && typeof output === 'object' && typeof output.stdout === 'string') {
    // Command output: stdout as printed, then stderr (the way the terminal showed it).
    const stderr = typeof output.stderr === 'string' && output.stderr !== '' ? `${output.stdout.endsWith('\n') || output.stdout === '' ? '' : '\n'}--- stderr ---\n${output.stderr}` : '';
    return output.stdout + stderr;
  }
  return `${JSON.stringify(output, null, 2)}\n`;
}

/**
 * `aibuddy view-call`: prints the raw result of a compacted call, read back from
 * `<data-dir>/compacted_outputs/<taskId>/<toolCallId>.json` (with `--json`, the whole record).
 * Without `--task-id` every task folder of the data dir is searched. Resolves with the exit code.
 */
export async function viewCall(
  parsed: Extract<ParsedCommand, { command: 'view-call' }>,
  io: { stdout: NodeJS.WritableStream },
): Promise<number> {
  const dataDir = resolve(parsed.dataDir ?? join(parsed.workspace ?? process.cwd(), '.aibuddy'));
  const root = join(dataDir, COMPACTED_OUTPUTS_DIR);
  if (!existsSync(root)) {
    throw new AgentStartupError('projection', `no compacted outputs under ${dataDir} (no ${COMPACTED_OUTPUTS_DIR} folder).`, {
      fix: 'pass --data-dir (each run prints its data dir) or --workspace of the run.',
    });
  }
  const store = createResultStore({ dataDir });
  let record: StoredResult | undefined;
  if (parsed.taskId) record = await store.read(parsed.taskId, parsed.toolCallId);
  else {
    // Folders are encoded task ids; the record inside names its own task.
    const file = `${safeName(parsed.toolCallId)}.json`;
    for (const folder of readdirSync(root)) {
      if (!existsSync(join(root, folder, file))) continue;
      const { readFile } = await import('node:fs/promises');
      record = JSON.parse(await readFile(join(root, folder, file), 'utf8')) as StoredResult;
      break;
    }
  }
  if (!record) {
    throw new AgentStartupError(
      'projection',
      `no saved result for call "${parsed.toolCallId}"${parsed.taskId ? ` of task ${parsed.taskId}` : ''} under ${root}.`,
      { fix: 'use the call id from the run (only compacted results are saved) and the task id it printed.' },
    );
  }
  io.stdout.write(parsed.json ? `${JSON.stringify(record, null, 2)}\n` : rawOutputText(record));
  return 0;
}
