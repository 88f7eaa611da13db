import {
  SandboxError,
  SandboxNotAFileError,
  SandboxNotFoundError,
  SandboxPathError,
} from '@aibuddy/sandbox';

/** Turns a Node fs error into a sandbox error that names the (workspace-relative) path. */
export function toSandboxError(error: unknown, path: string, operation: string): unknown {
  if (SandboxError.isInstance(error)) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return new SandboxNotFoundError(`${operation}: "${path}" does not exist in the workspace.`, { path, cause: error });
    case 'ENOTDIR':
      return new SandboxNotFoundError(`${operation}: a parent of "${path}" is not a directory.`, { path, cause: error });
    case 'EISDIR':
      return new SandboxNotAFileError(`${operation}: "${path}" is a directory, not a regular file.`, { path, cause: error });
    case 'ELOOP':
      // Opened with O_NOFOLLOW: a symlink appeared after the path was checked.
      return new SandboxPathError(`${operation}: "${path}" became a symlink while it was being used; refused.`, {
        path,
        cause: error,
      });
    default:
      return error;
  }
}
