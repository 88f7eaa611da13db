// `.git` planting (issue 12, item 3): a command plants hooks or config that would make the host's
// next `git` run code, by renaming `.git` away and copying it back, in nested repositories, in a
// repository it creates itself, or through a `.git` pointer file. After the call, the host's real
// `git status` and `git commit` (run by this test process) must run nothing planted: each payload
// writes a marker file OUTSIDE the workspace, and the marker must be absent.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NodeSandboxConfig } from './config.js';
import { createNodeSandbox } from './node-sandbox.js';
// Needs bwrap: skipped with the reason where missing, required in CI (see system-tools.ts).
import { systemTool } from '@aibuddy/test-utils/system-tools';
const bwrap = systemTool('bwrap');

let base: string;
let ws: string;

function git(cwd: string, ...args: string[]): { status: number | null; stdout: string } {
  const run = spawnSync('git', ['-c', 'user.name=host', '-c', 'user.email=host@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: run.status, stdout: run.stdout };
}

/** What the host does next in a repository folder: status (fsmonitor, index hooks) and a commit (pre-commit). */
function hostUsesRepo(dir: string): void {
  git(dir, 'status');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'host commit');
}

function marker(name: string): string {
  return join(base, `marker-${name}`);
}

/** Shell that plants a pre-commit hook and an fsmonitor in the git dir `gitDir`, both touching `mark`. */
function plant(gitDir: string, mark: string): string {
  return (
    `printf '#!/bin/sh\\ntouch ${mark}-hook\\n' > ${gitDir}/hooks/pre-commit && chmod +x ${gitDir}/hooks/pre-commit && ` +
    `git config --file ${gitDir}/config core.fsmonitor 'touch ${mark}-fsmonitor; false'`
  );
}

function markersLeft(): string[] {
  return ['top', 'nested', 'new', 'pointer', 'hookspath', 'commondir', 'wt-commondir']
    .flatMap((n) => [`${marker(n)}-hook`, `${marker(n)}-fsmonitor`])
    .filter((p) => existsSync(p));
}

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'aibuddy-gitguard-'));
  ws = join(base, 'ws');
  mkdirSync(join(ws, 'sub'), { recursive: true });
  git(ws, 'init', '-q');
  git(join(ws, 'sub'), 'init', '-q');
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

const MODES: [string, Partial<NodeSandboxConfig>][] = [
  ['bubblewrap', { isolation: 'required' }],
  ['pid-namespace', { isolation: 'off' }],
  ['plain process group', { isolation: 'off', pidNamespace: false }],
];

describe.each(MODES)('git guard (%s)', (_name, mode) => {
  if (mode.isolation === 'required' && bwrap.skip) {
    it.skip(`${bwrap.reason}`, () => {});
    return;
  }
  const create = (extra: Partial<NodeSandboxConfig> = {}) => createNodeSandbox({ type: 'node', root: ws, ...mode, ...extra });

  it('top level: mv .git away, copy it back, plant a hook and core.fsmonitor', async () => {
    const sandbox = await create();
    const result = await sandbox.exec(
      `mv .git .git-old && mkdir .git && cp -a .git-old/. .git/ && ${plant('.git', marker('top'))} && echo planted`,
    );
    expect(result.stdout).toBe('planted\n'); // the attack itself went through inside
    expect(result.notices?.join('\n')).toMatch(/pre-commit/);
    hostUsesRepo(ws);
    expect(markersLeft()).toEqual([]);
    expect(git(ws, 'status', '--porcelain').status).toBe(0); // the repository still works
  });

  it('nested repository, core.hooksPath into the workspace, and a repository made during the call', async () => {
    const sandbox = await create();
    const command = [
      plant('sub/.git', marker('nested')),
      `mkdir evil-hooks && printf '#!/bin/sh\\ntouch ${marker('hookspath')}-hook\\n' > evil-hooks/pre-commit && chmod +x evil-hooks/pre-commit`,
      'git -C sub config core.hooksPath ../evil-hooks',
      `git init -q fresh && ${plant('fresh/.git', marker('new'))}`,
      'echo planted',
    ].join(' && ');
    const result = await sandbox.exec(command);
    expect(result.stdout).toBe('planted\n');
    hostUsesRepo(join(ws, 'sub'));
    hostUsesRepo(join(ws, 'fresh'));
    expect(markersLeft()).toEqual([]);
    expect(readFileSync(join(ws, 'sub', '.git', 'config'), 'utf8')).not.toMatch(/hooksPath|fsmonitor/i);
    expect(readFileSync(join(ws, 'fresh', '.git', 'config'), 'utf8')).not.toMatch(/fsmonitor/i);
  });

  it('a .git pointer file to a planted git dir is set aside', async () => {
    const sandbox = await create();
    const result = await sandbox.exec(
      `git init -q --bare evil-dir && ${plant('evil-dir', marker('pointer'))} && mkdir other && printf 'gitdir: ../evil-dir\\n' > other/.git && echo planted`,
    );
    expect(result.stdout).toBe('planted\n');
    hostUsesRepo(join(ws, 'other'));
    expect(markersLeft()).toEqual([]);
  });

  it('.git/commondir (top level and in a linked worktree) pointed at a planted folder is undone', async () => {
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'base');
    git(ws, 'worktree', 'add', '-q', 'wt');
    const sandbox = await create();
    // A folder that is not named .git, shaped like a git common dir, with a hook and an fsmonitor.
    const planted = (dir: string, mark: string) =>
      `mkdir -p ${dir}/hooks && cp -a .git/config .git/objects .git/refs ${dir}/ && ${plant(dir, mark)}`;
    const result = await sandbox.exec(
      [
        planted('evilgit', marker('commondir')),
        `printf '../evilgit\\n' > .git/commondir`,
        planted('evilwt', marker('wt-commondir')),
        `printf '../../../evilwt\\n' > .git/worktrees/wt/commondir`,
        'echo planted',
      ].join(' && '),
    );
    expect(result.stdout).toBe('planted\n');
    expect(result.notices?.join('\n')).toMatch(/commondir/);
    hostUsesRepo(ws);
    hostUsesRepo(join(ws, 'wt'));
    expect(markersLeft()).toEqual([]);
    expect(git(ws, 'status', '--porcelain').status).toBe(0);
    expect(git(join(ws, 'wt'), 'status', '--porcelain').status).toBe(0);
  });

  it('ordinary git work inside the call is left alone (no notices)', async () => {
    const sandbox = await create();
    const result = await sandbox.exec(
      'git init -q fresh && cd fresh && echo hi > a.txt && git add a.txt && git -c user.name=m -c user.email=m@x commit -q -m first && git config user.email me@example.com && echo done',
    );
    expect(result.stdout).toBe('done\n');
    expect(result.notices).toBeUndefined();
    expect(git(join(ws, 'fresh'), 'log', '--format=%s').stdout).toBe('first\n');
    expect(readFileSync(join(ws, 'fresh', '.git', 'config'), 'utf8')).toMatch(/me@example.com/);
  });
});

describe('control: without the guard the attack works (so the tests above can fail)', () => {
  it.skipIf(bwrap.skip)('protectGit: false leaves the planted hook and fsmonitor in place, and the host runs them', async () => {
    const sandbox = await createNodeSandbox({ type: 'node', root: ws, isolation: 'required', protectGit: false });
    await sandbox.exec(`mv .git .git-old && mkdir .git && cp -a .git-old/. .git/ && ${plant('.git', marker('top'))}`);
    hostUsesRepo(ws);
    expect(markersLeft().sort()).toEqual([`${marker('top')}-fsmonitor`, `${marker('top')}-hook`]);
  });

  it.skipIf(bwrap.skip)('protectGit: false leaves a planted .git/commondir, and the host runs its fsmonitor', async () => {
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'base');
    const sandbox = await createNodeSandbox({ type: 'node', root: ws, isolation: 'required', protectGit: false });
    await sandbox.exec(
      `mkdir -p evilgit/hooks && cp -a .git/config .git/objects .git/refs evilgit/ && ${plant('evilgit', marker('commondir'))} && printf '../evilgit\\n' > .git/commondir`,
    );
    hostUsesRepo(ws);
    expect(markersLeft()).toContain(`${marker('commondir')}-fsmonitor`);
  });
});
