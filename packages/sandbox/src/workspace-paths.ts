import { posix } from 'node:path';

// Characters that case-insensitive or Unicode-normalizing file systems ignore when comparing names
// (HFS+ drops zero-width characters; Windows drops trailing dots and spaces): `.g\u200Cit` and
// `.git.` are `.git` there.
const IGNORABLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]/g;

/** True when a path segment names a `.git` folder or file, however a file system may spell it (case, 8.3 name). */
export function isGitSegment(segment: string): boolean {
  const s = segment
    .replace(IGNORABLE, '')
    .replace(/[. ]+$/, '')
    .toLowerCase();
  return s === '.git' || s === 'git~1';
}

/**
 * The workspace-relative form of a path, however it is spelled: `\` counts as a separator
 * (conservative), `.`, empty segments and `..` are collapsed, an absolute path inside `root` becomes
 * relative. Returns `undefined` for a path that leaves the workspace (adapters refuse those anyway).
 * Pure: it never touches the disk, so symlinks are the caller's to resolve.
 */
export function normalizeWorkspacePath(path: string, root?: string): string | undefined {
  let p = path.replace(/\\/g, '/');
  if (p.startsWith('/')) {
    if (!root) return undefined;
    const r = posix.normalize(root.replace(/\\/g, '/')).replace(/\/+$/, '');
    const abs = posix.normalize(p);
    if (abs !== r && !abs.startsWith(`${r}/`)) return undefined;
    p = abs.slice(r.length + 1) || '.';
  }
  const normal = posix.normalize(p);
  if (normal === '..' || normal.startsWith('../')) return undefined;
  return normal.replace(/\/+$/, '') || '.';
}

/**
 * Which protection a normalized workspace path falls under: `git` for anything inside (or named)
 * a `.git` at any depth, or the entry of `protectedPaths` it lies in (compared case-insensitively);
 * `undefined` when none. The one rule both the file tools and the command classifier apply.
 */
export function protectedPathMatch(normalized: string, protectedPaths: readonly string[] = []): 'git' | string | undefined {
  if (normalized.split('/').some(isGitSegment)) return 'git';
  const lower = normalized.toLowerCase();
  for (const entry of protectedPaths) {
    const p = normalizeWorkspacePath(entry)?.toLowerCase();
    if (p === undefined || p === '.') continue;
    if (lower === p || lower.startsWith(`${p}/`)) return normalizeWorkspacePath(entry)!;
  }
  return undefined;
}
