import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ParsedCommand } from './args.js';
import { AgentStartupError } from './errors.js';

/** Where the compactor keeps raw results: `<dataDir>/compacted_outputs/<taskId>/<toolCallId>.json`. */
export function compactedOutputsDir(dataDir: string): string {
  return join(dataDir, 'compacted_outputs');
}

/** Prints the raw result of a compacted call (`aibuddy view-call`). Resolves with the exit code. */
export async function viewCall(
  parsed: Extract<ParsedCommand, { command: 'view-call' }>,
  io: { stdout: NodeJS.WritableStream },
): Promise<number> {
  const dataDir = resolve(parsed.dataDir ?? join(parsed.workspace ?? process.cwd(), '.aibuddy'));
  const root = compactedOutputsDir(dataDir);
  if (!existsSync(root)) {
    throw new AgentStartupError('projection', `no compacted outputs under ${dataDir}.`, {
      fix: 'pass --data-dir (the run prints its data dir) or --workspace of the run.',
    });
  }
  const tasks = parsed.taskId ? [parsed.taskId] : readdirSync(root);
  const file = tasks.map((t) => join(root, t, `${parsed.toolCallId}.json`)).find((f) => existsSync(f));
  if (!file) {
    throw new AgentStartupError('projection', `no compacted result for call "${parsed.toolCallId}"${parsed.taskId ? ` in task ${parsed.taskId}` : ''} under ${root}.`, {
      fix: 'check the call id in the run output or event log; only results that were compacted are kept.',
    });
  }
  io.stdout.write(readFileSync(file, 'utf8'));
  return 0;
}
