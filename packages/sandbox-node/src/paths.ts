import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { SandboxPathError } from '@aibuddy/sandbox';

/** The workspace root: as given (resolved), as its real path, and held open. */
export interface Root {
  /** `path.resolve` of the configured root. */
  readonly given: string;
  /** `fs.realpath` of the root at creation: lexical checks compare against this. */
  readonly real: string;
  /** Descriptor of the root folder, held open: every lookup starts from it (see `fdPath`). */
  readonly fd: number;
}

/** Linux gives up at 40 symlink hops; so do we. */
export const MAX_SYMLINK_HOPS = 40;

/** True when `child` is `parent` or below it (component-wise, so `/ws-evil` is not below `/ws`). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Throws the `SandboxPathError` for a refused path. */
export function refuse(input: string, why: string): never {
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
  // Half of a UTF-16 pair: the name on disk would hold U+FFFD instead, another name than the one given.
  if (/\p{Cs}/u.test(input)) refuse(input.replace(/\p{Cs}/gu, '\uFFFD'), 'it contains a lone surrogate (half of a character)');
  if (/^[a-zA-Z]:/.test(input)) refuse(input, 'Windows drive paths are not workspace paths');
  if (input.startsWith('\\\\') || input.startsWith('//')) refuse(input, 'UNC and network paths are not workspace paths');
  if (input.includes('\\')) refuse(input, 'backslashes are not path separators here (use "/")');
  if (input === '~' || input.startsWith('~/') || /^~[^/]*($|\/)/.test(input)) {
    refuse(input, '"~" would mean a home folder outside the workspace');
  }
}

/** Maps an absolute path under the given root onto the real root; undefined when outside both. */
function underRoot(root: Pick<Root, 'given' | 'real'>, abs: string): string | undefined {
  if (isInside(root.real, abs)) return abs;
  if (root.given !== root.real && isInside(root.given, abs)) return join(root.real, relative(root.given, abs));
  return undefined;
}

/**
 * The lexical part of resolution: spelling checked, `..` folded, an absolute path mapped under the
 * root. Returns the components below the root (empty for the root itself) without touching the
 * disk; `..` that climbs out (even if it would come back in by name, like `../ws-evil`) and
 * absolute paths outside are refused here.
 */
export function lexicalParts(root: Pick<Root, 'given' | 'real'>, input: string): { rel: string; parts: string[] } {
  checkSpelling(input);
  const asked = input === '' ? '.' : input;
  const lexical = resolve(root.real, asked);
  const start = isAbsolute(asked) ? underRoot(root, resolve(asked)) : isInside(root.real, lexical) ? lexical : undefined;
  if (start === undefined) refuse(input, 'it resolves outside the workspace');
  const rel = relative(root.real, start);
  return { rel: rel === '' ? '.' : rel.split(sep).join('/'), parts: rel === '' ? [] : rel.split(sep) };
}

/**
 * Where a symlink met inside the root leads, as components below the root; refused when it leads
 * out. `dirParts` are the physical components of the folder holding the link (no symlinks in
 * them), so a relative target's `..` is that folder's real parent.
 */
export function linkTarget(
  root: Pick<Root, 'given' | 'real'>,
  dirParts: readonly string[],
  target: string,
  input: string,
): string[] {
  const abs = isAbsolute(target) ? resolve(target) : resolve(root.real, ...dirParts, target);
  const inside = underRoot(root, abs);
  if (inside === undefined) {
    const link = [...dirParts].join('/');
    refuse(input, `a symlink${link === '' ? '' : ` in "${link}"`} leads outside the workspace (to "${target}")`);
  }
  const rel = relative(root.real, inside);
  return rel === '' ? [] : rel.split(sep);
}

/** The workspace-relative form of a real path inside the root (`.` for the root). */
export function relFromReal(root: Root, real: string): string {
  return relative(root.real, real).split(sep).join('/') || '.';
}
