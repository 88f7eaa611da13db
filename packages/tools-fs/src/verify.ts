import { ToolError } from '@aibuddy/registry';
import type { ISandbox, ReadFileResult } from '@aibuddy/sandbox';
import { toFsToolError } from './errors.js';
import { WHOLE_FILE_LINES } from './fs-context.js';

/** Reads a whole file back after a change; a failure to read it is a `verification` error. */
export async function rereadWhole(
  sandbox: ISandbox,
  path: string,
  toolName: string,
  signal: AbortSignal,
): Promise<ReadFileResult> {
  try {
    return await sandbox.readFile(path, { limit: WHOLE_FILE_LINES, signal });
  } catch (error) {
    const mapped = toFsToolError(error, toolName, path);
    throw new ToolError(`the file was changed but could not be read back to verify it: ${mapped.reason}`, {
      stage: 'verification',
      toolName,
      cause: error,
      sideEffectsPossible: true,
      hint: 'Read the file with read_file to see what is on disk before doing anything else.',
    });
  }
}

/**
 * The `content` a `readFile` of `text` would return: lines split on `\n`, one trailing `\r` per line
 * dropped (the sandbox normalizes CRLF that way), no final empty line.
 */
export function expectedReadContent(text: string): string {
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines.join('\n');
}
