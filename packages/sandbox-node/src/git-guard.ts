import { lstat, mkdir, open, readdir, readFile, readlink, rename, rm } from 'node:fs/promises';
import { constants, readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { configAcceptable, sanitizeGitConfig } from './git-config-policy.js';

/**
 * Entries the guard visits at most per snapshot. Past it the snapshot is marked incomplete and
 * the command's result says so: a workspace that large needs `.git` folders checked by hand.
 */
export const MAX_GUARD_ENTRIES = 300_000;
/** Folders read between two yields to the event loop during a walk. */
const YIELD_EVERY_DIRS = 256;
/** Hooks larger than this are compared by size and mtime only, and cannot be restored. */
const MAX_HOOK_BYTES = 1024 * 1024;

/** What could make git run code in one repository folder (a `.git` dir, or a module/worktree dir in it). */
interface RepoDirState {
  kind: 'dir';
  /** `config` bytes (undefined: absent; a symlink is stored as `symlink:<target>`). */
  config: string | undefined;
  /** `config.worktree` bytes, likewise. */
  configWorktree: string | undefined;
  /**
   * `commondir` bytes, likewise. git takes `config`, `hooks`, objects and refs from the folder this
   * names, so pointing it at a planted folder that is not named `.git` would bypass the checks above.
   */
  commondir: string | undefined;
  /** `hooks` itself: a folder (undefined when absent) or a symlink. */
  hooksKind: 'dir' | 'symlink' | 'other' | undefined;
  /** Hook name → content (or `big:<size>` for oversized ones, `symlink:<target>` for links). */
  hooks: Map<string, string>;
}

/** A `.git` file (gitdir pointer) or symlink or anything that is not a folder. */
interface RepoPointerState {
  kind: 'pointer';
  /** The file's content, or the link's target. */
  content: string;
}

type RepoState = RepoDirState | RepoPointerState;

/** Everything in the workspace that could make git run code, keyed by workspace-relative path. */
export interface GitSnapshot {
  repos: Map<string, RepoState>;
  /** False when the walk stopped at {@link MAX_GUARD_ENTRIES}. */
  complete: boolean;
}

async function readSmall(path: string): Promise<string | undefined> {
  try {
    const st = await lstat(path);
    if (st.isSymbolicLink()) return `symlink:${await readlink(path)}`;
    if (!st.isFile()) return `other:${st.mode}`;
    if (st.size > MAX_HOOK_BYTES) return `big:${st.size}:${st.mtimeMs}`;
    // O_NOFOLLOW: the lstat above and this open must be the same file, not a link swapped in.
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      return (await handle.readFile()).toString('latin1');
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

async function repoDirState(dir: string): Promise<RepoDirState> {
  const hooks = new Map<string, string>();
  let hooksKind: RepoDirState['hooksKind'];
  try {
    const st = await lstat(join(dir, 'hooks'));
    hooksKind = st.isSymbolicLink() ? 'symlink' : st.isDirectory() ? 'dir' : 'other';
    if (hooksKind === 'dir') {
      for (const name of await readdir(join(dir, 'hooks'))) {
        const content = await readSmall(join(dir, 'hooks', name));
        if (content !== undefined) hooks.set(name, content);
      }
    } else if (hooksKind === 'symlink') hooks.set('', `symlink:${await readlink(join(dir, 'hooks'))}`);
  } catch {
    hooksKind = undefined;
  }
  return {
    kind: 'dir',
    config: await readSmall(join(dir, 'config')),
    configWorktree: await readSmall(join(dir, 'config.worktree')),
    commondir: await readSmall(join(dir, 'commondir')),
    hooksKind,
    hooks,
  };
}

/** Repository folders inside a `.git` folder: submodules (`modules/…`) and worktrees (`worktrees/*`). */
async function innerRepos(rootReal: string, rel: string, into: Map<string, RepoState>, budget: { left: number }): Promise<void> {
  for (const sub of ['modules', 'worktrees']) {
    const stack = [join(rel, sub)];
    while (stack.length > 0 && budget.left > 0) {
      const current = stack.pop()!;
      let entries;
      try {
        entries = await readdir(join(rootReal, current), { withFileTypes: true });
      } catch {
        continue;
      }
      budget.left -= entries.length;
      if (entries.some((e) => e.name === 'HEAD')) into.set(current, await repoDirState(join(rootReal, current)));
      for (const entry of entries) {
        if (entry.isDirectory() && !['objects', 'refs', 'logs', 'hooks', 'info', 'lfs'].includes(entry.name))
          stack.push(join(current, entry.name));
      }
    }
  }
}

/**
 * Walks the workspace (never following symlinks) and records, for every `.git` entry at any
 * depth and every submodule/worktree folder inside one, what could make git run code.
 */
export async function snapshotGit(rootReal: string): Promise<GitSnapshot> {
  const repos = new Map<string, RepoState>();
  const budget = { left: MAX_GUARD_ENTRIES };
  const stack: string[] = ['.'];
  const found: { rel: string; dir: boolean }[] = [];
  let sinceYield = 0;
  while (stack.length > 0) {
    if (budget.left <= 0) break;
    // Synchronous readdir is ~10x faster than the promise API for many small folders; yield to
    // the event loop every few hundred folders so heartbeats and aborts still run.
    if (++sinceYield >= YIELD_EVERY_DIRS) {
      sinceYield = 0;
      await new Promise((resolveTick) => setImmediate(resolveTick));
    }
    const rel = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(rel === '.' ? rootReal : `${rootReal}/${rel}`, { withFileTypes: true });
    } catch {
      continue;
    }
    budget.left -= entries.length;
    for (const entry of entries) {
      // Plain concatenation: `join` normalizes every path, which dominates a walk of many entries.
      const childRel = rel === '.' ? entry.name : `${rel}/${entry.name}`;
      if (entry.name === '.git') found.push({ rel: childRel, dir: entry.isDirectory() });
      else if (entry.isDirectory()) stack.push(childRel);
    }
  }
  for (const { rel, dir } of found) {
    const abs = join(rootReal, rel);
    if (dir) {
      repos.set(rel, await repoDirState(abs));
      await innerRepos(rootReal, rel, repos, budget);
    } else {
      repos.set(rel, { kind: 'pointer', content: (await readSmall(abs)) ?? '' });
    }
  }
  return { repos, complete: budget.left > 0 };
}

function sameDir(a: RepoDirState, b: RepoDirState): boolean {
  if (
    a.config !== b.config ||
    a.configWorktree !== b.configWorktree ||
    a.commondir !== b.commondir ||
    a.hooksKind !== b.hooksKind ||
    a.hooks.size !== b.hooks.size
  )
    return false;
  for (const [name, content] of a.hooks) if (b.hooks.get(name) !== content) return false;
  return true;
}

async function writeAtomic(dir: string, name: string, content: string): Promise<void> {
  const temp = join(dir, `.${name}.aibuddy-${randomBytes(6).toString('hex')}`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  try {
    await handle.writeFile(Buffer.from(content, 'latin1'));
  } finally {
    await handle.close();
  }
  await rename(temp, join(dir, name));
}

/** Moves `path` into the quarantine folder of `dir`, where git never looks. */
async function quarantine(dir: string, stamp: string, path: string, as: string): Promise<string> {
  const target = join(dir, `aibuddy-quarantine-${stamp}`);
  await mkdir(target, { recursive: true });
  const dest = join(target, as);
  await mkdir(dirname(dest), { recursive: true });
  await rename(path, dest);
  return dest;
}

async function repairConfig(
  abs: string,
  name: 'config' | 'config.worktree',
  before: string | undefined,
  after: string | undefined,
  exists: boolean,
  stamp: string,
  rel: string,
  notices: string[],
): Promise<void> {
  if (after === undefined || after === before) return;
  const link = after.startsWith('symlink:') || after.startsWith('other:');
  if (!link && configAcceptable(after, exists ? before : undefined)) return;
  const moved = await quarantine(abs, stamp, join(abs, name), name);
  if (before !== undefined && !before.startsWith('symlink:') && !before.startsWith('other:')) {
    await writeAtomic(abs, name, before);
    notices.push(
      `${rel}/${name} was changed by the command in a way that could make git run code; the previous version was restored (the command's version is in ${relativeTo(abs, moved)}).`,
    );
  } else {
    if (!link && name === 'config') await writeAtomic(abs, name, sanitizeGitConfig(after));
    notices.push(
      `${rel}/${name} set options that could make git run code (hooks path, fsmonitor, aliases, filters, ssh command, …); they were removed (the command's version is in ${relativeTo(abs, moved)}).`,
    );
  }
}

function relativeTo(abs: string, path: string): string {
  return relative(dirname(abs), path);
}

async function repairHooks(
  abs: string,
  before: RepoDirState | undefined,
  after: RepoDirState,
  stamp: string,
  rel: string,
  notices: string[],
): Promise<void> {
  const hooksDir = join(abs, 'hooks');
  if (after.hooksKind === 'symlink' || after.hooksKind === 'other') {
    await quarantine(abs, stamp, hooksDir, 'hooks');
    await mkdir(hooksDir);
    notices.push(`${rel}/hooks was replaced by a link or a file; it was set aside and an empty hooks folder created.`);
    for (const [name, content] of before?.hooks ?? []) {
      if (name !== '' && !content.startsWith('big:') && !content.startsWith('symlink:') && !content.startsWith('other:'))
        await writeAtomic(hooksDir, name, content);
    }
    return;
  }
  for (const [name, content] of after.hooks) {
    const previous = before?.hooks.get(name);
    if (previous === content) continue;
    // git never runs `*.sample` files; a new repository has them (git init), they are harmless.
    if (name.endsWith('.sample') && !content.startsWith('symlink:')) continue;
    await quarantine(abs, stamp, join(hooksDir, name), join('hooks', name));
    if (
      previous !== undefined &&
      !previous.startsWith('big:') &&
      !previous.startsWith('symlink:') &&
      !previous.startsWith('other:')
    ) {
      await writeAtomic(hooksDir, name, previous);
      notices.push(`${rel}/hooks/${name} was changed by the command; the previous version was restored.`);
    } else notices.push(`${rel}/hooks/${name} was planted by the command; it was moved to quarantine and will not run.`);
  }
}

/** Whether a `.git` pointer file stays inside the workspace, in a folder the snapshot covers. */
function pointerSafe(rootReal: string, rel: string, content: string, repos: Map<string, RepoState>): boolean {
  if (content.startsWith('symlink:') || content.startsWith('other:') || content.startsWith('big:')) return false;
  const match = /^gitdir: (.+?)\r?\n?$/.exec(content);
  if (!match) return false;
  const target = resolve(rootReal, dirname(rel), match[1]!);
  const targetRel = relative(rootReal, target);
  if (targetRel.startsWith('..') || targetRel === '' || targetRel.startsWith(sep)) return false;
  const state = repos.get(targetRel);
  return state !== undefined && state.kind === 'dir' && targetRel.split(sep).includes('.git');
}

/**
 * Whether a `commondir` file in the repository folder `rel` names a repository folder inside the
 * workspace that the snapshot covers (a linked worktree's `../..`), so its config and hooks are
 * checked too.
 */
function commondirSafe(rootReal: string, rel: string, content: string, repos: Map<string, RepoState>): boolean {
  if (content.startsWith('symlink:') || content.startsWith('other:') || content.startsWith('big:')) return false;
  const match = /^([^\r\n]+)\r?\n?$/.exec(content);
  if (!match) return false;
  const targetRel = relative(rootReal, resolve(rootReal, rel, match[1]!));
  if (targetRel.startsWith('..') || targetRel === '' || targetRel.startsWith(sep)) return false;
  return repos.get(targetRel)?.kind === 'dir';
}

async function repairCommondir(
  rootReal: string,
  abs: string,
  rel: string,
  before: string | undefined,
  after: string | undefined,
  repos: Map<string, RepoState>,
  stamp: string,
  notices: string[],
): Promise<void> {
  if (after === undefined || after === before || commondirSafe(rootReal, rel, after, repos)) return;
  const moved = await quarantine(abs, stamp, join(abs, 'commondir'), 'commondir');
  const restorable = before !== undefined && commondirSafe(rootReal, rel, before, repos);
  if (restorable) await writeAtomic(abs, 'commondir', before);
  notices.push(
    `${rel}/commondir was pointed at a folder the checks do not cover (git would take config and hooks from there); ${
      restorable ? 'the previous version was restored' : 'it was removed'
    } (the command's version is in ${relativeTo(abs, moved)}).`,
  );
}

/**
 * Compares the workspace with the snapshot taken before a command and undoes what could make the
 * host's next `git` run planted code: changed or added hooks go to quarantine (previous versions
 * restored), a config that gained unsafe entries is restored (or, for a repository the command
 * created, rewritten with only the allowed entries), a `.git` pointer or link and a `commondir`
 * file that lead elsewhere are set aside. Returns one sentence per repair.
 */
export async function repairGit(rootReal: string, before: GitSnapshot): Promise<string[]> {
  const after = await snapshotGit(rootReal);
  const notices: string[] = [];
  const stamp = `${Date.now()}-${randomBytes(3).toString('hex')}`;
  for (const [rel, state] of after.repos) {
    const previous = before.repos.get(rel);
    const abs = join(rootReal, rel);
    try {
      if (state.kind === 'pointer') {
        if (previous?.kind === 'pointer' && previous.content === state.content) continue;
        if (pointerSafe(rootReal, rel, state.content, after.repos)) continue;
        const dest = join(dirname(abs), `${basename(abs)}.aibuddy-quarantine-${stamp}`);
        await rename(abs, dest);
        notices.push(
          `${rel} was turned into a link or pointer to a repository outside the checked folders; it was renamed to ${relative(rootReal, dest)}.`,
        );
        continue;
      }
      const prevDir = previous?.kind === 'dir' ? previous : undefined;
      if (prevDir && sameDir(prevDir, state)) continue;
      await repairConfig(abs, 'config', prevDir?.config, state.config, prevDir !== undefined, stamp, rel, notices);
      await repairConfig(
        abs,
        'config.worktree',
        prevDir?.configWorktree,
        state.configWorktree,
        prevDir !== undefined,
        stamp,
        rel,
        notices,
      );
      await repairHooks(abs, prevDir, state, stamp, rel, notices);
      await repairCommondir(rootReal, abs, rel, prevDir?.commondir, state.commondir, after.repos, stamp, notices);
    } catch (error) {
      // Cannot repair (e.g. a read-only file system): set the whole repository folder aside.
      try {
        await rm(join(abs, 'hooks'), { recursive: true, force: true });
      } catch {
        // nothing more to do
      }
      notices.push(`${rel} could not be checked and repaired (${(error as Error).message}); its hooks were removed.`);
    }
  }
  if (!after.complete)
    notices.push(
      `the workspace has more than ${MAX_GUARD_ENTRIES} entries; .git folders beyond that were not checked for planted hooks or config.`,
    );
  return notices;
}
