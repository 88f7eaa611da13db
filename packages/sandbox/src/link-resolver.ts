import { lstatSync, realpathSync } from 'node:fs';
import { relative, sep } from 'node:path';

/** Where a workspace path really leads: a workspace-relative path, `outside` the workspace, or `unknown`. */
export type LinkResolution = string | 'outside' | 'unknown';

/**
 * A symlink resolver for a workspace on the local disk: follows every link of a normalized
 * workspace-relative path, component by component, and returns the real workspace-relative path,
 * `outside` when a link leaves the workspace, or `unknown` when a link cannot be resolved (a
 * dangling link, a loop, a permission error). Parts that do not exist yet are taken as written.
 * Shared by every tool that judges a write target (file tools, the shell's command policy), so
 * they agree on where a path leads.
 */
export function createLinkResolver(root: string): (normalized: string) => LinkResolution {
  return (normalized) => {
    let realRoot: string;
    try {
      realRoot = realpathSync(root);
    } catch {
      return 'unknown';
    }
    const parts = normalized === '.' ? [] : normalized.split('/');
    let current = realRoot;
    for (let i = 0; i < parts.length; i++) {
      const next = `${current}${sep}${parts[i]}`;
      let link = false;
      try {
        link = lstatSync(next).isSymbolicLink();
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') {
          current = [next, ...parts.slice(i + 1)].join(sep);
          break;
        }
        return 'unknown';
      }
      if (!link) {
        current = next;
        continue;
      }
      try {
        current = realpathSync(next);
      } catch {
        return 'unknown';
      }
    }
    const rel = relative(realRoot, current);
    if (rel === '..' || rel.startsWith(`..${sep}`) || rel.startsWith(sep)) return 'outside';
    return rel.split(sep).join('/') || '.';
  };
}
