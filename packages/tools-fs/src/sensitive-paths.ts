import { lstatSync, realpathSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { ImpactAssessment } from '@aibuddy/registry';
import { isGitSegment, normalizeWorkspacePath, protectedPathMatch } from '@aibuddy/sandbox';

export { isGitSegment, normalizeWorkspacePath };

/** Where a path is resolved: the sandbox's type and root (symlinks are followed only on the local disk). */
export interface SensitivePathContext {
  /** The sandbox backend; symlinks are resolved only for `node` (a local folder). */
  type?: string;
  /** The workspace root. */
  root?: string;
  /** Workspace-relative paths to protect besides every `.git` (for example the host's data folder). */
  protectedPaths?: readonly string[] | undefined;
}

/**
 * Follows symlinks of a workspace path on the local disk, component by component, and returns
 * the workspace-relative real path; `outside` when a link leaves the workspace; `unknown` when a
 * link cannot be resolved (a loop, a permission error).
 */
function resolveLinks(normal: string, root: string): string | 'outside' | 'unknown' {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return 'unknown';
  }
  const parts = normal === '.' ? [] : normal.split('/');
  let current = realRoot;
  for (let i = 0; i < parts.length; i++) {
    const next = `${current}${sep}${parts[i]}`;
    let isLink = false;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') {
        // Nothing exists from here on, so nothing further is a link.
        current = [next, ...parts.slice(i + 1)].join(sep);
        break;
      }
      return 'unknown';
    }
    if (!isLink) {
      current = next;
      continue;
    }
    try {
      current = realpathSync(next);
    } catch (error) {
      // A dangling link: writing through it creates its target, which we cannot see; be careful.
      return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'unknown' : 'unknown';
    }
  }
  const rel = relative(realRoot, current);
  if (rel.startsWith('..') || rel.startsWith(sep)) return 'outside';
  return rel.split(sep).join('/') || '.';
}

/**
 * Files whose change alters what later commands do outside the agent's view: everything in a
 * `.git` folder (or a `.git` file) at any depth — `config`, `config.worktree`, `hooks/*`,
 * `modules/*\/hooks`, `info/attributes` — because hooks run code on commits and pushes and
 * `core.fsmonitor` runs on every `git status`; plus the host's protected paths. The rule applies
 * to the RESOLVED path: `.git/./hooks/x`, `.git//hooks/x`, `a/../.git/config`, `.GIT/config`, an
 * absolute path inside the root, and (on a local sandbox) a symlink that points into `.git` all
 * match. A path through a symlink that cannot be resolved is treated as sensitive.
 */
export function sensitivePathImpact(
  path: string,
  verb: 'Writing' | 'Editing',
  context: SensitivePathContext = {},
): ImpactAssessment | undefined {
  const protectedPaths = context.protectedPaths ?? [];
  const normal = normalizeWorkspacePath(path, context.root);
  if (normal === undefined) return undefined; // outside the workspace: the sandbox refuses it before any byte is written
  let hit = protectedPathMatch(normal, protectedPaths);
  let resolved = normal;
  if (!hit && context.type === 'node' && context.root) {
    const real = resolveLinks(normal, context.root);
    if (real === 'unknown') {
      return {
        target: path,
        scope: 'unknown (a symlink on the way could not be resolved)',
        impact: `${verb} ${path} goes through a symlink that could not be resolved; it may point into a .git folder or another protected path.`,
      };
    }
    if (real !== 'outside') {
      resolved = real;
      hit = protectedPathMatch(real, protectedPaths);
    }
  }
  if (!hit) return undefined;
  const shown = resolved === path ? path : `${path} (resolves to ${resolved})`;
  if (hit === 'git') {
    return {
      target: shown,
      scope: 'repository configuration (runs on later git commands)',
      impact: `${verb} ${shown} changes what git runs or where it pushes: hooks run code on later commits and pushes, and config (core.fsmonitor, core.pager, aliases) runs programs on commands as plain as git status.`,
    };
  }
  return {
    target: shown,
    scope: `a protected path of the host (${hit})`,
    impact: `${verb} ${shown} changes files the host relies on (${hit}); the agent is not meant to change them.`,
  };
}
