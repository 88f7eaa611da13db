import type { ImpactAssessment } from '@aibuddy/registry';
import type { FsRunContext } from './fs-context.js';
import { createLinkResolver, isGitSegment, normalizeWorkspacePath, protectedPathMatch } from '@aibuddy/sandbox';

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
    const real = createLinkResolver(context.root)(normal);
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

/** `sensitivePathImpact` of a write or an edit in this run: its sandbox's type and root, its protected paths. */
export function runPathImpact(
  run: Pick<FsRunContext, 'sandbox' | 'protectedPaths'>,
  path: string,
  verb: 'Writing' | 'Editing',
): ImpactAssessment | undefined {
  return sensitivePathImpact(path, verb, {
    type: run.sandbox.type,
    root: run.sandbox.root,
    protectedPaths: run.protectedPaths,
  });
}
