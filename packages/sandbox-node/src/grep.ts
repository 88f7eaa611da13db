/**
 * `grepFiles`: checks the options, locates the target and runs the ripgrep engine when a
 * confined ripgrep works, else the JavaScript engine. Both give the same results.
 */
import type { GrepOptions, GrepResult } from '@aibuddy/sandbox';
import { SandboxArgumentError } from '@aibuddy/sandbox';
import { closeFd } from './fd-path.js';
import { grepWithJs } from './grep-js.js';
import { grepWithRipgrep, ripgrepWorks } from './grep-ripgrep.js';
import { globFilter } from './grep-shared.js';
import type { GrepLimits, GrepSettings } from './grep-shared.js';
import { locateTarget } from './grep-target.js';
import { checkSpelling, type Root } from './paths.js';
import { releaseLocated } from './resolve-at.js';
import { confinedRipgrep } from './ripgrep-confined.js';

/** Default cap on grep matches. */
export const DEFAULT_GREP_LIMIT = 1000;

/**
 * Searches file contents; ripgrep when it works (confined), else the JavaScript engine. Both
 * give the same results (see the package README, "grep semantics"): the glob filter relative to
 * `path`, `.gitignore` / `.ignore` / `.rgignore` inside the workspace honoured (with or without a
 * `.git` folder), hidden files and `node_modules` skipped, files over 16 MiB skipped, context merged
 * like ripgrep's, `\r` of CRLF lines stripped (and `$` matching before it), file names taken from
 * NUL-separated output so that a newline in a name cannot split it.
 */
export async function grepFiles(
  root: Root,
  pattern: string,
  options: GrepOptions | undefined,
  limits: GrepLimits,
): Promise<GrepResult> {
  if (typeof pattern !== 'string' || pattern === '')
    throw new SandboxArgumentError('grep: the pattern must be a non-empty string.');
  if (pattern.includes('\0')) throw new SandboxArgumentError('grep: the pattern contains a null byte.');
  const limit = options?.limit ?? DEFAULT_GREP_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new SandboxArgumentError('grep: limit must be a whole number of at least 1.');
  const context = options?.context ?? 0;
  if (!Number.isInteger(context) || context < 0 || context > 100) {
    throw new SandboxArgumentError('grep: context must be a whole number from 0 to 100.');
  }
  if (options?.glob !== undefined) checkSpelling(options.glob);
  const filter = globFilter(options?.glob);
  const settings: GrepSettings = {
    limit,
    context,
    ignoreCase: options?.ignoreCase === true,
    glob: options?.glob,
    filter,
    signal: options?.signal,
  };
  const target = await locateTarget(root, options?.path ?? '.');
  try {
    // A single file is searched whatever the ignore files say (as ripgrep does for a path it is
    // given), but the glob filter applies to its name.
    if (target.kind === 'file' && filter && !filter(target.file.name)) {
      return { matches: [], truncated: false, engine: limits.ripgrep === false ? 'javascript' : 'ripgrep' };
    }
    const rg =
      limits.ripgrep !== false && ripgrepWorks(limits.ripgrep)
        ? confinedRipgrep(limits.ripgrep, limits.bubblewrap, root.real)
        : undefined;
    if (rg !== undefined && typeof rg !== 'string') {
      return await grepWithRipgrep(root, rg, pattern, target.physical, settings, limits.timeMs);
    }
    return await grepWithJs(root, pattern, target, settings, limits);
  } finally {
    if (target.kind === 'dir') await closeFd(target.dir.fd);
    else await releaseLocated(target.file);
  }
}
