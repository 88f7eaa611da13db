import { posix } from 'node:path';
import type { ShellWord } from './parse-shell.js';

/** Where a command may write without a person's confirmation. */
export interface WriteTargetOptions {
  /** The workspace root, so that an absolute path inside it counts as a workspace path. */
  workspaceRoot?: string | undefined;
  /** Extra workspace-relative paths (folders or files) nothing may write to, e.g. the host's data folder. */
  protectedPaths?: readonly string[] | undefined;
  /** The workspace-relative folder the command runs in (relative targets are resolved from it). */
  cwd?: string | undefined;
  /**
   * Follows symlinks of a normalised workspace path (the classifier itself never touches the disk):
   * returns the real workspace-relative path, `outside`, or `unknown` when a link cannot be resolved.
   * The execute tool passes one for the node sandbox (see `createLinkResolver`).
   */
  resolveLinks?: ((normalised: string) => string | 'outside' | 'unknown') | undefined;
}

/** Descriptors and devices that are not files of anyone. */
const HARMLESS_DEVICES = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

// Characters that case-insensitive or Unicode-normalising file systems ignore (HFS+ drops
// zero-width characters; Windows drops trailing dots and spaces): `.g\u200Cit` is `.git` there.
const IGNORABLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]/g;

/** True when a path segment names a `.git` folder or file, however a file system may spell it. */
export function isGitSegment(segment: string): boolean {
  const s = segment
    .replace(IGNORABLE, '')
    .replace(/[. ]+$/, '')
    .toLowerCase();
  return s === '.git' || s === 'git~1';
}

/**
 * Normalises a workspace path: `\` counts as a separator (conservative), `.`, `//` and `..` are
 * collapsed; an absolute path inside `workspaceRoot` becomes relative. Returns `undefined` when it
 * leaves the workspace.
 */
export function normaliseWorkspacePath(path: string, workspaceRoot?: string): string | undefined {
  let p = path.replace(/\\/g, '/');
  if (p.startsWith('/')) {
    if (!workspaceRoot) return undefined;
    const root = posix.normalize(workspaceRoot.replace(/\\/g, '/')).replace(/\/+$/, '');
    const abs = posix.normalize(p);
    if (abs !== root && !abs.startsWith(`${root}/`)) return undefined;
    p = abs.slice(root.length + 1) || '.';
  }
  const normal = posix.normalize(p);
  if (normal === '..' || normal.startsWith('../')) return undefined;
  return normal.replace(/\/+$/, '') || '.';
}

/** Why a workspace-relative path is protected, or `undefined`. */
export function protectedReason(normalised: string, protectedPaths: readonly string[] = []): string | undefined {
  const segments = normalised.split('/');
  if (segments.some(isGitSegment))
    return 'it is inside a .git folder (repository configuration and hooks run code on later git commands)';
  for (const entry of protectedPaths) {
    const p = normaliseWorkspacePath(entry);
    if (p === undefined || p === '.') continue;
    if (normalised.toLowerCase() === p.toLowerCase() || normalised.toLowerCase().startsWith(`${p.toLowerCase()}/`)) {
      return `it is inside the protected path ${p}`;
    }
  }
  return undefined;
}

/**
 * Why a command may not write to `target` without a person's confirmation, or `undefined` when the
 * target is an ordinary workspace path (or a harmless device such as /dev/null).
 */
export function writeTargetProblem(target: ShellWord, options: WriteTargetOptions = {}): string | undefined {
  if (target.kind === 'literal' && HARMLESS_DEVICES.test(target.text)) return undefined;
  if (target.kind !== 'literal') return `writes to ${target.text}, a file name only known when the command runs`;
  if (target.text.startsWith('~')) return `writes to ${target.text}, outside the workspace`;
  const path =
    options.cwd && !target.text.startsWith('/') ? posix.join(options.cwd.replace(/\\/g, '/'), target.text) : target.text;
  const normal = normaliseWorkspacePath(path, options.workspaceRoot);
  if (normal === undefined) return `writes to ${target.text}, outside the workspace`;
  const reason = protectedReason(normal, options.protectedPaths);
  if (reason) return `writes to ${target.text}: ${reason}`;
  if (options.resolveLinks) {
    const real = options.resolveLinks(normal);
    if (real === 'outside') return `writes to ${target.text}, which a symlink leads outside the workspace`;
    if (real === 'unknown') return `writes to ${target.text} through a symlink that cannot be resolved`;
    const linked = protectedReason(real, options.protectedPaths);
    if (linked) return `writes to ${target.text} (a symlink to ${real}): ${linked}`;
  }
  return undefined;
}
