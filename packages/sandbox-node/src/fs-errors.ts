import {
  SandboxArgumentError,
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
    case 'ENAMETOOLONG':
      return new SandboxArgumentError(
        `${operation}: the path "${path.length > 120 ? `${path.slice(0, 120)}…` : path}" is too long for the filesystem (at most 255 bytes per name and 4,096 bytes in all); use a shorter path.`,
        { path, cause: error },
      );
    case 'EINVAL':
      if ((error as NodeJS.ErrnoException).syscall === 'readlink') {
        // lstat saw a symlink, readlink found something else: it was replaced in between.
        return new SandboxNotFoundError(
          `${operation}: "${path}" changed while it was being resolved (a link was replaced); nothing was done. Try again.`,
          {
            path,
            cause: error,
          },
        );
      }
      return error;
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
