import { ToolError } from '@aibuddy/registry';
import { SandboxError } from '@aibuddy/sandbox';
import type { SandboxErrorCode } from '@aibuddy/sandbox';

/** Hints for the sandbox errors that are about the input (`parameters` stage), by stable code. */
const PARAMETER_HINTS: Partial<Record<SandboxErrorCode, (toolName: string) => string>> = {
  PATH_ESCAPE: () =>
    'Paths are relative to the workspace root and must stay inside it (no "..", no absolute paths elsewhere, no symlinks that leave it).',
  NOT_FOUND: () => 'Check the path: use ls on the parent folder or glob to find the file.',
  NOT_A_FILE: (toolName) =>
    toolName === 'ls'
      ? 'This is a file: use read_file to read it.'
      : 'This is a directory (or not a regular file): use ls to list it, or glob to find files in it.',
  BINARY: () =>
    'Binary files cannot be read or edited as text; inspect them with execute (for example `file`, `xxd | head`). UTF-16 or UTF-32 text: convert it to UTF-8 first, as the message says.',
  TOO_LARGE: () =>
    'The file is over the size limit for this operation; read it in windows (offset/limit) or process it with execute.',
  INVALID_ARGUMENT: () => 'Fix the argument and call again.',
  EDIT_MISMATCH: () => 'Read the file again and copy the exact text to replace.',
};

/**
 * Maps a sandbox error to a `ToolError` with the stage and a hint the model can act on. Errors
 * about the input (a path outside the workspace, a missing file, a directory where a file was
 * expected, a bad pattern) are `parameters`; everything else is `execution`. Dispatches on the
 * error's stable `code`, so it covers every sandbox error class without naming each one.
 */
export function toFsToolError(error: unknown, toolName: string, path: string | undefined): ToolError {
  if (ToolError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const where = path === undefined ? '' : ` (path "${path}")`;
  const code = SandboxError.isInstance(error) ? error.code : undefined;
  const parameterHint = code === undefined ? undefined : PARAMETER_HINTS[code];
  if (parameterHint) {
    return new ToolError(`${message}${message.includes(path ?? '\u0000') ? '' : where}`, {
      stage: 'parameters',
      toolName,
      cause: error,
      hint: parameterHint(toolName),
    });
  }
  if (code === 'ABORTED') {
    return new ToolError(`stopped: ${message}`, { stage: 'execution', toolName, cause: error, retryable: false });
  }
  if (code === 'TIMEOUT') {
    return new ToolError(message, {
      stage: 'execution',
      toolName,
      cause: error,
      hint: 'Narrow the path or pattern so the operation finishes sooner.',
    });
  }
  return new ToolError(`${message}${where}`, {
    stage: 'execution',
    toolName,
    cause: error,
    sideEffectsPossible: toolName === 'write_file' || toolName === 'edit_file',
    ...(code === undefined ? {} : { hint: `(sandbox error ${code})` }),
  });
}
