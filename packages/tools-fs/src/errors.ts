import { ToolError } from '@aibuddy/registry';
import {
  SandboxAbortedError,
  SandboxArgumentError,
  SandboxBinaryFileError,
  SandboxEditError,
  SandboxError,
  SandboxNotAFileError,
  SandboxNotFoundError,
  SandboxPathError,
  SandboxTimeoutError,
  SandboxTooLargeError,
} from '@aibuddy/sandbox';

/**
 * Maps a sandbox error to a `ToolError` with the stage and a hint the model can act on. Errors
 * about the input (a path outside the workspace, a missing file, a directory where a file was
 * expected, a bad pattern) are `parameters`; everything else is `execution`.
 */
export function toFsToolError(error: unknown, toolName: string, path: string | undefined): ToolError {
  if (ToolError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const where = path === undefined ? '' : ` (path "${path}")`;
  const parameters = (hint: string) =>
    new ToolError(`${message}${message.includes(path ?? '\u0000') ? '' : where}`, {
      stage: 'parameters',
      toolName,
      cause: error,
      hint,
    });
  if (SandboxPathError.isInstance(error)) {
    return parameters(
      'Paths are relative to the workspace root and must stay inside it (no "..", no absolute paths elsewhere, no symlinks that leave it).',
    );
  }
  if (SandboxNotFoundError.isInstance(error)) {
    return parameters('Check the path: use ls on the parent folder or glob to find the file.');
  }
  if (SandboxNotAFileError.isInstance(error)) {
    return parameters(
      toolName === 'ls'
        ? 'This is a file: use read_file to read it.'
        : 'This is a directory (or not a regular file): use ls to list it, or glob to find files in it.',
    );
  }
  if (SandboxBinaryFileError.isInstance(error)) {
    return parameters(
      'Binary files cannot be read or edited as text; inspect them with execute (for example `file`, `xxd | head`).',
    );
  }
  if (SandboxTooLargeError.isInstance(error)) {
    return parameters(
      'The file is over the size limit for this operation; read it in windows (offset/limit) or process it with execute.',
    );
  }
  if (SandboxArgumentError.isInstance(error)) {
    return parameters('Fix the argument and call again.');
  }
  if (SandboxEditError.isInstance(error)) {
    return parameters('Read the file again and copy the exact text to replace.');
  }
  if (SandboxAbortedError.isInstance(error)) {
    return new ToolError(`stopped: ${message}`, { stage: 'execution', toolName, cause: error, retryable: false });
  }
  if (SandboxTimeoutError.isInstance(error)) {
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
    ...(SandboxError.isInstance(error) ? { hint: `(sandbox error ${error.code})` } : {}),
  });
}
