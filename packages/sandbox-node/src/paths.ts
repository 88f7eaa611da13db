import { lstat, readlink } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { SandboxNotFoundError, SandboxPathError } from '@aibuddy/sandbox';

/** The workspace root, as given (resolved) and as its real path. */
export interface Root {
  /** `path.resolve` of the configured root. */
  readonly given: string;
  /** `fs.realpath` of the root: every check compares against this. */
  readonly real: string;
}

/** A path inside the workspace, resolved with every symlink on the way followed and checked. */
export interface ResolvedPath {
  /** Workspace-relative path as asked for (normalised, `.` for the root), for messages and results. */
  readonly rel: string;
  /** Absolute real path (symlinks resolved); what the I/O uses. */
  readonly real: string;
  /** Whether the path exists (a dangling symlink that stays inside counts as not existing). */
  readonly exists: boolean;
}

/** Linux gives up at 40 symlink hops; so do we. */
const MAX_SYMLINK_HOPS = 40;

/** True when `child` is `parent` or below it (component-wise, so `/ws-evil` is not below `/ws`). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function refuse(input: string, why: string): never {
  throw new SandboxPathError(`Path "${input}" is refused: ${why}. Use a path relative to the workspace root.`, {
    path: input,
  });
}

/**
 * Checks the spelling of a path before anything touches the disk: no null bytes, no Windows drive
 * or UNC forms, no backslashes, no `~` (which a shell would expand to a home folder outside).
 */
export function checkSpelling(input: string): void {
  if (typeof input !== 'string') refuse(String(input), 'it is not a string');
  if (input.includes('\0')) refuse(input.replace(/\0/g, '\\0'), 'it contains a null byte');
  if (/^[a-zA-Z]:/.test(input)) refuse(input, 'Windows drive paths are not workspace paths');
  if (input.startsWith('\\\\') || input.startsWith('//')) refuse(input, 'UNC and network paths are not workspace paths');
  if (input.includes('\\')) refuse(input, 'backslashes are not path separators here (use "/")');
  if (input === '~' || input.startsWith('~/') || /^~[^/]*($|\/)/.test(input)) {
    refuse(input, '"~" would mean a home folder outside the workspace');
  }
}

/** Maps an absolute path under the given root onto the real root; undefined when outside both. */
function underRoot(root: Root, abs: string): string | undefined {
  if (isInside(root.real, abs)) return abs;
  if (root.given !== root.real && isInside(root.given, abs)) return join(root.real, relative(root.given, abs));
  return undefined;
}

/**
 * Resolves a workspace path with symlinks followed one component at a time, so a symlink, a
 * dangling symlink or a chain of symlinks anywhere on the way that leads out of the root is
 * refused before any I/O on the target. Components that do not exist yet are appended to the real
 * path of the deepest existing ancestor.
 */
export async function resolvePath(root: Root, input: string): Promise<ResolvedPath> {
  checkSpelling(input);
  const asked = input === '' ? '.' : input;
  // Lexical check first: `..` that climbs out (even if it would come back in by name, like
  // `../ws-evil`) and absolute paths outside are refused without touching the disk.
  const lexical = resolve(root.real, asked);
  const start = isAbsolute(asked) ? underRoot(root, resolve(asked)) : isInside(root.real, lexical) ? lexical : undefined;
  if (start === undefined) refuse(input, 'it resolves outside the workspace');
  const rel = relative(root.real, start) || '.';
  const hops = { count: 0 };
  const { real, exists } = await walk(root, start, input, hops);
  return { rel, real, exists };
}

async function walk(
  root: Root,
  absInside: string,
  input: string,
  hops: { count: number },
): Promise<{ real: string; exists: boolean }> {
  const parts = relative(root.real, absInside).split(sep).filter((p) => p !== '' && p !== '.');
  let cur = root.real;
  for (let i = 0; i < parts.length; i++) {
    const next = join(cur, parts[i]!);
    let stat;
    try {
      stat = await lstat(next);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { real: join(next, ...parts.slice(i + 1)), exists: false };
      if (code === 'ENOTDIR') {
        throw new SandboxNotFoundError(`Path "${input}": "${relative(root.real, cur)}" is a file, not a directory.`, {
          path: input,
          cause: error,
        });
      }
      throw error;
    }
    if (!stat.isSymbolicLink()) {
      if (i < parts.length - 1 && !stat.isDirectory()) {
        throw new SandboxNotFoundError(`Path "${input}": "${relative(root.real, next)}" is not a directory.`, {
          path: input,
        });
      }
      cur = next;
      continue;
    }
    if (++hops.count > MAX_SYMLINK_HOPS) refuse(input, `more than ${MAX_SYMLINK_HOPS} symlinks on the way (a loop?)`);
    const target = resolve(cur, await readlink(next));
    const inside = underRoot(root, target);
    if (inside === undefined) {
      refuse(input, `the symlink "${relative(root.real, next)}" leads outside the workspace`);
    }
    const followed = await walk(root, inside, input, hops);
    if (!followed.exists) return { real: join(followed.real, ...parts.slice(i + 1)), exists: false };
    cur = followed.real;
  }
  return { real: cur, exists: true };
}

/** The workspace-relative form of a real path inside the root (`.` for the root). */
export function relFromReal(root: Root, real: string): string {
  return relative(root.real, real).split(sep).join('/') || '.';
}
