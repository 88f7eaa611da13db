import { posix } from 'node:path';
import { isGitSegment, normalizeWorkspacePath, protectedPathMatch } from '@aibuddy/sandbox';
import type { ShellWord } from './shell-syntax.js';

export { isGitSegment, normalizeWorkspacePath };

/** Where a command may write without a person's confirmation. */
export interface WriteTargetOptions {
  /** The workspace root, so that an absolute path inside it counts as a workspace path. */
  workspaceRoot?: string | undefined;
  /** Extra workspace-relative paths (folders or files) nothing may write to, e.g. the host's data folder. */
  protectedPaths?: readonly string[] | undefined;
  /** The workspace-relative folder the command runs in (relative targets are resolved from it). */
  cwd?: string | undefined;
  /**
   * Follows symlinks of a normalized workspace path (the classifier itself never touches the disk):
   * returns the real workspace-relative path, `outside`, or `unknown` when a link cannot be resolved.
   * The execute tool passes one for the node sandbox (see `createLinkResolver`).
   */
  resolveLinks?: ((normalized: string) => string | 'outside' | 'unknown') | undefined;
}

/** Descriptors and devices that are not files of anyone. */
const HARMLESS_DEVICES = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/** Why a workspace-relative path is protected, or `undefined` (the rule is `protectedPathMatch`, shared with the file tools). */
export function protectedReason(normalized: string, protectedPaths: readonly string[] = []): string | undefined {
  const match = protectedPathMatch(normalized, protectedPaths);
  if (match === undefined) return undefined;
  return match === 'git'
    ? 'it is inside a .git folder (repository configuration and hooks run code on later git commands)'
    : `it is inside the protected path ${match}`;
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
  const normal = normalizeWorkspacePath(path, options.workspaceRoot);
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
