import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, createWorkspace, runSteps } from '@aibuddy/tool-harness';
import type { Workspace } from '@aibuddy/tool-harness';
import { lastToolResultText } from '@aibuddy/test-utils';
import { ISSUE_SPELLINGS } from './classify-command.cases.js';
import { createShellToolConfig } from './shell-config.js';

// Only the deletions that can run here offline (no network, no registry, no root) and would
// really delete build/ if they were let through.
const DELETIONS = [
  'rm --rec build',
  'setsid rm -rf build',
  'echo "rm -rf build" | bash',
  `node -e "require('fs').rmSync('build', { recursive: true, force: true })"`,
  'a=rm; $a -rf build',
  'busybox rm -rf build',
  'flock lockfile rm -rf build',
  'find build -delete',
  'find build -type f | xargs rm',
  'bash <<< "rm -rf build"',
  'echo cm0gLXJmIGJ1aWxkCg== | base64 -d | sh',
  'env rm -rf build',
  'timeout 10 rm -rf build',
  'nohup rm -rf build',
  'command rm -rf build',
  '/bin/rm -rf build',
  'x=$(rm -rf build); echo "$x"',
  'ls build > /dev/null && rm -r build',
  'watch -n 1 -e "rm -rf build"',
  'git status 2>/dev/null; rm -rf build',
];

let ws: Workspace;
const FILE = 'build/out/app.js';
beforeAll(async () => {
  ws = await createWorkspace({ isolation: 'off' });
});
afterAll(async () => {
  await ws.dispose();
});

describe('fail-closed authorization end to end (generateText, real node sandbox, reject-all gate)', () => {
  it('covers the issue spellings that can run offline', () => {
    expect(DELETIONS.filter((d) => ISSUE_SPELLINGS.includes(d)).length).toBeGreaterThanOrEqual(6);
  });

  it('deletes nothing, asks for every spelling, and tells the model why', async () => {
    await mkdir(join(ws.root, 'build/out'), { recursive: true });
    await writeFile(join(ws.root, FILE), 'console.log(1)\n');
    const asked: Array<{ target: string; impact: string }> = [];
    const run = await runSteps(
      createShellToolConfig(),
      ws.sandbox,
      DELETIONS.map((command, i) => ({ toolCalls: [{ id: `d${i}`, toolName: 'execute', input: { command, timeout: 20 } }] })),
      {
        authorize: async (request) => {
          asked.push({ target: request.target, impact: request.impact });
          return { approved: false, reason: 'the test gate rejects every request' };
        },
      },
    );
    expect(asked.length).toBe(DELETIONS.length);
    expect(await readFile(join(ws.root, FILE), 'utf8')).toBe('console.log(1)\n');
    for (let i = 0; i < DELETIONS.length; i++) {
      const text = lastToolResultText(run.model, `d${i}`);
      expect(text, DELETIONS[i]).toContain('the test gate rejects every request');
    }
    // The person saw what the command would do, or plainly that it could not be proven harmless.
    expect(asked[0]!.impact).toMatch(/Recursively deletes build/);
    expect(asked[2]!.impact).toMatch(/pipe into bash/);
    expect(asked[3]!.impact).toMatch(/node -e runs inline code/);
    expect(asked[4]!.impact).toMatch(/program name \$a is only known when the command runs/);
  });

  it('runs read-only commands without asking, and an allowed prefix only as a whole word', async () => {
    let asked = 0;
    const config = createShellToolConfig({ allow: ['node --print'] });
    const run = await runSteps(
      config,
      ws.sandbox,
      calls(
        ['ls', 'execute', { command: 'ls build && git --version > /dev/null; cat build/out/app.js | wc -l' }],
        ['allowed', 'execute', { command: 'node --print 6*7' }],
        ['chained', 'execute', { command: 'node --print 1; rm -rf build' }],
      ),
      {
        authorize: async () => {
          asked += 1;
          return { approved: false, reason: 'no' };
        },
      },
    );
    expect(run.seen('ls').text).toContain('out');
    expect(run.seen('allowed').text).toContain('42');
    expect(asked).toBe(1);
    expect(lastToolResultText(run.model, 'chained')).toContain('no');
    expect(existsSync(join(ws.root, FILE))).toBe(true);
  });

  it('judges a redirection through a symlink by where it leads (into .git: asks; nothing written)', async () => {
    await mkdir(join(ws.root, '.git/hooks'), { recursive: true });
    await writeFile(join(ws.root, '.git/config'), '[core]\n');
    await symlink('.git', join(ws.root, 'gl'));
    await symlink('.git/hooks', join(ws.root, 'hk'));
    const commands = [
      'echo "[core] fsmonitor = x" > gl/config',
      'echo x | tee hk/pre-commit',
      'cd gl && echo x >> config',
      'ls > notes.txt',
    ];
    const asked: string[] = [];
    const run = await runSteps(
      createShellToolConfig(),
      ws.sandbox,
      commands.map((command, i) => ({ toolCalls: [{ id: `l${i}`, toolName: 'execute', input: { command } }] })),
      {
        authorize: async (request) => {
          asked.push(request.impact);
          return { approved: false, reason: 'rejected' };
        },
      },
    );
    expect(asked).toHaveLength(3);
    expect(asked[0]).toMatch(/a symlink to \.git\/config/);
    expect(await readFile(join(ws.root, '.git/config'), 'utf8')).toBe('[core]\n');
    expect(existsSync(join(ws.root, '.git/hooks/pre-commit'))).toBe(false);
    expect(run.seen('l3').text).toMatch(/^exit code: 0/);
  });
});
