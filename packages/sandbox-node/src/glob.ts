import type { GlobOptions, GlobResult } from '@aibuddy/sandbox';
import { SandboxArgumentError, SandboxNotFoundError } from '@aibuddy/sandbox';
import { closeFd } from './fd-path.js';
import { compileGlob } from './glob-pattern.js';
import { checkSpelling, lexicalParts, type Root } from './paths.js';
import { openDirectory, type LocatedDir } from './resolve-at.js';
import { walkFiles } from './walk.js';

/** Default cap on glob matches. */
export const DEFAULT_GLOB_LIMIT = 1000;

/** Limits of a glob walk. */
export interface GlobLimits {
  timeMs: number;
  maxEntries: number;
}

/** Splits off the leading folders that contain no wildcard, so the walk starts there. */
function literalPrefix(pattern: string): { prefix: string; rest: string } {
  const segments = pattern.split('/');
  let k = 0;
  while (k < segments.length - 1 && !/[*?[\]{}\\]/.test(segments[k]!) && segments[k] !== '') k++;
  return { prefix: segments.slice(0, k).join('/'), rest: segments.slice(k).join('/') };
}

/**
 * Finds regular files whose path (relative to `options.path`) matches the pattern, with the glob
 * meaning documented at `compileGlob` (a pattern without `/` matches names at any depth).
 */
export async function globFiles(
  root: Root,
  pattern: string,
  options: GlobOptions | undefined,
  limits: GlobLimits,
): Promise<GlobResult> {
  if (typeof pattern !== 'string') throw new SandboxArgumentError('glob: the pattern must be a string.');
  checkSpelling(pattern);
  const limit = options?.limit ?? DEFAULT_GLOB_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new SandboxArgumentError(`glob: limit must be a whole number of at least 1.`);
  let clean = pattern.startsWith('./') ? pattern.slice(2) : pattern;
  if (clean.startsWith('/')) {
    throw new SandboxArgumentError(
      `glob: the pattern "${pattern}" is absolute; give it relative to the search folder (options.path).`,
    );
  }
  const { prefix, rest } = literalPrefix(clean);
  // What is left of an anchored pattern stays anchored below the prefix (`src/*.ts` → `/*.ts` under src).
  // A leading "./" anchors too, as in compileGlob.
  clean = prefix === '' && !pattern.startsWith('./') ? rest : `/${rest}`;
  const matcher = compileGlob(clean);
  const base = lexicalParts(root, options?.path ?? '.');
  // The prefix is resolved like any path, so `../x/*.ts` or a symlinked prefix is refused.
  const startPath = prefix === '' ? base.rel : base.rel === '.' ? prefix : `${base.rel}/${prefix}`;
  let start: LocatedDir;
  try {
    start = await openDirectory(root, startPath, 'glob');
  } catch (error) {
    if (SandboxNotFoundError.isInstance(error) && !(error as Error).message.includes('not a directory'))
      return { files: [], truncated: false };
    throw error;
  }
  const files: string[] = [];
  let truncated = false;
  const under = start.physical === '.' ? '' : `${start.physical}/`;
  let stopped: boolean;
  try {
    ({ stopped } = await walkFiles(
      start.fd,
      {
        skipHidden: false,
        skipNodeModules: !pattern.includes('node_modules'),
        deadline: Date.now() + limits.timeMs,
        maxEntries: limits.maxEntries,
        signal: options?.signal,
        operation: 'glob',
      },
      (entry) => {
        if (!matcher.test(entry.rel)) return true;
        if (files.length >= limit) {
          truncated = true;
          return false;
        }
        files.push(under + entry.rel);
        return true;
      },
    ));
  } finally {
    await closeFd(start.fd);
  }
  files.sort();
  return { files, truncated: truncated || stopped };
}
