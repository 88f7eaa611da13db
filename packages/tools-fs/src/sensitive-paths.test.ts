import { mkdir, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, createWorkspace, runSteps } from '@aibuddy/tool-harness';
import type { Workspace } from '@aibuddy/tool-harness';
import { lastToolResultText } from '@aibuddy/test-utils';
import { createFilesystemToolConfig } from './filesystem-config.js';
import { sensitivePathImpact } from './sensitive-paths.js';

/** Spellings of protected git paths that were written without a question before. */
const GIT_SPELLINGS = [
  '.git/config',
  '.git/./hooks/pre-commit',
  '.git//hooks/x',
  'sub/.git/./hooks/x',
  '.git/modules/m/hooks/x',
  '.git/config.worktree',
  '.git/./config',
  './.git/../.git/config',
  'a/../.git/hooks/x',
  '.GIT/config',
  '.Git/hooks/post-checkout',
  '.git/info/attributes',
  '.git',
  'sub/.git',
  '.git\\hooks\\pre-push',
  '.git./config',
  'GIT~1/config',
  '.g\u200Cit/config',
];

describe('sensitivePathImpact: the resolved path decides', () => {
  for (const path of GIT_SPELLINGS) {
    it(`protects ${JSON.stringify(path)}`, () => {
      const found = sensitivePathImpact(path, 'Writing');
      expect(found?.scope).toBe('repository configuration (runs on later git commands)');
    });
  }
  it('protects an absolute path inside the root and a host path', () => {
    expect(sensitivePathImpact('/ws/.git/hooks/x', 'Writing', { root: '/ws' })).toBeDefined();
    expect(sensitivePathImpact('data/./run.json', 'Editing', { protectedPaths: ['data'] })?.scope).toMatch(
      /protected path of the host \(data\)/,
    );
  });
  for (const path of [
    'src/a.ts',
    'git/config',
    '.github/workflows/ci.yml',
    '.gitignore',
    '.gitmodules',
    'docs/.git-notes.md',
    'a/.gitx/y',
  ]) {
    it(`leaves ${path} alone`, () => {
      expect(sensitivePathImpact(path, 'Writing')).toBeUndefined();
    });
  }
});

let ws: Workspace;
const originals = new Map<string, Buffer>();
beforeAll(async () => {
  ws = await createWorkspace();
  for (const dir of ['.git/hooks', '.git/info', '.git/modules/m/hooks', 'sub/.git/hooks', 'a'])
    await mkdir(join(ws.root, dir), { recursive: true });
  await writeFile(join(ws.root, '.git/config'), '[core]\n\trepositoryformatversion = 0\n');
  await writeFile(join(ws.root, '.git/config.worktree'), '[core]\n');
  await writeFile(join(ws.root, '.git/info/attributes'), '');
  await writeFile(join(ws.root, 'sub/.git/config'), '[core]\n');
  // Symlinks inside the workspace that point into .git.
  await symlink('.git', join(ws.root, 'gitlink'));
  await symlink('.git/hooks', join(ws.root, 'hooks'));
  await symlink(join(ws.root, '.git/config'), join(ws.root, 'cfg'));
});
afterAll(async () => {
  await ws.dispose();
});

async function snapshot(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string) => {
    for (const entry of await readdir(join(ws.root, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(rel);
      else if (entry.isFile()) out.set(rel, (await readFile(join(ws.root, rel))).toString('base64'));
      else out.set(rel, 'link');
    }
  };
  await walk('');
  return out;
}

const THROUGH_TOOLS = [
  ...GIT_SPELLINGS.filter((p) => !p.includes('\\') && !p.includes('\u200C') && p !== '.git./config' && p !== 'GIT~1/config'),
  'gitlink/config',
  'gitlink/hooks/pre-commit',
  'hooks/pre-push',
  'cfg',
];

describe('write_file and edit_file with a reject-all gate: nothing is written', () => {
  it('refuses every spelling through write_file, after reading the file so that only the gate stands in the way', async () => {
    const before = await snapshot();
    const asked: string[] = [];
    const steps = THROUGH_TOOLS.flatMap((path, i) =>
      calls(
        [`r${i}`, 'read_file', { path }],
        [`w${i}`, 'write_file', { path, content: '[core]\n\tfsmonitor = "touch pwned"\n' }],
      ),
    );
    const run = await runSteps(createFilesystemToolConfig(), ws.sandbox, steps, {
      authorize: async (request) => {
        asked.push(String(request.target));
        return { approved: false, reason: 'rejected by the test gate' };
      },
    });
    expect(asked.length).toBe(THROUGH_TOOLS.length);
    for (let i = 0; i < THROUGH_TOOLS.length; i++) {
      expect(lastToolResultText(run.model, `w${i}`), THROUGH_TOOLS[i]).toMatch(/rejected by the test gate/);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses every spelling through edit_file', async () => {
    const before = await snapshot();
    const editable = THROUGH_TOOLS.filter((p) => /config$|cfg$/.test(p) && !p.endsWith('.git'));
    expect(editable.length).toBeGreaterThanOrEqual(6);
    const steps = editable.flatMap((path, i) =>
      calls(
        [`r${i}`, 'read_file', { path }],
        [`e${i}`, 'edit_file', { path, old_text: '[core]', new_text: '[core]\n\tfsmonitor = "touch pwned"' }],
      ),
    );
    let asked = 0;
    const run = await runSteps(createFilesystemToolConfig(), ws.sandbox, steps, {
      authorize: async () => {
        asked += 1;
        return { approved: false, reason: 'rejected by the test gate' };
      },
    });
    expect(asked).toBe(editable.length);
    for (let i = 0; i < editable.length; i++)
      expect(lastToolResultText(run.model, `e${i}`), editable[i]).toMatch(/rejected by the test gate/);
    expect(await snapshot()).toEqual(before);
  });

  it('still writes ordinary files without asking', async () => {
    let asked = 0;
    const run = await runSteps(
      createFilesystemToolConfig(),
      ws.sandbox,
      calls(['ok', 'write_file', { path: 'a/../notes/ok.txt', content: 'fine' }]),
      {
        authorize: async () => {
          asked += 1;
          return { approved: false };
        },
      },
    );
    expect(asked).toBe(0);
    expect(run.seen('ok').text).toMatch(/^Created/);
    expect(await readFile(join(ws.root, 'notes/ok.txt'), 'utf8')).toBe('fine');
  });
});
