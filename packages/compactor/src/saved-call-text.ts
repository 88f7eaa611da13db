import type { SavedCall } from './find-call.js';

/**
 * The text of a saved call's raw input or output as a person reads it (`aibuddy view-call`, the
 * web client's "full output"): a string as it is; command output as the terminal showed it,
 * stdout then stderr under a `--- stderr ---` line; anything else as indented JSON. The model
 * pages through a different text (`partText`), where a command's output stays one JSON value.
 */
export function savedCallText(record: Pick<SavedCall, 'input' | 'output'>, part: 'input' | 'output' = 'output'): string {
  const value = part === 'input' ? record.input : record.output;
  if (typeof value === 'string') return value;
  const output = value as { stdout?: unknown; stderr?: unknown } | null;
  if (part === 'output' && output && typeof output === 'object' && typeof output.stdout === 'string') {
    const stderr =
      typeof output.stderr === 'string' && output.stderr !== ''
        ? `${output.stdout.endsWith('\n') || output.stdout === '' ? '' : '\n'}--- stderr ---\n${output.stderr}`
        : '';
    return output.stdout + stderr;
  }
  return `${JSON.stringify(value, null, 2)}\n`;
}
