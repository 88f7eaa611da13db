import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, createWorkspace, runSteps } from '@aibuddy/tool-harness';
import type { Workspace } from '@aibuddy/tool-harness';
import { createShellToolConfig, shellToolConfig } from './shell-config.js';

let ws: Workspace;
beforeAll(async () => {
  ws = await createWorkspace();
});
afterAll(async () => {
  await ws.dispose();
});

describe('the default high-impact policy through generateText', () => {
  it('refuses rm -rf at the authorization stage when no one can be asked, with no side effect', async () => {
    await mkdir(join(ws.root, 'keep'), { recursive: true });
    await writeFile(join(ws.root, 'keep/file.txt'), 'precious');
    const run = await runSteps(shellToolConfig, ws.sandbox, calls(['rm', 'execute', { command: 'cd keep && rm -rf .' }]));
    expect(run.seen('rm').text).toMatch(
      /^\[authorization\] execute: this call is high impact \(Recursively deletes \. without prompting/,
    );
    expect(await readFile(join(ws.root, 'keep/file.txt'), 'utf8')).toBe('precious');
  });

  it('asks the host with target, scope and impact, and runs the command once approved', async () => {
    await mkdir(join(ws.root, 'tmpdir/a'), { recursive: true });
    const requests: unknown[] = [];
    const run = await runSteps(
      shellToolConfig,
      ws.sandbox,
      calls(['ok', 'execute', { command: 'rm -r tmpdir && echo removed' }]),
      {
        authorize: async (request) => {
          requests.push({ target: request.target, scope: request.scope, toolCallId: request.toolCallId });
          return { approved: true };
        },
      },
    );
    expect(requests).toEqual([{ target: 'tmpdir', scope: 'workspace', toolCallId: 'ok' }]);
    expect(run.seen('ok').text).toContain('removed');
  });

  it('lets ordinary commands run without asking, including ones that only mention dangerous words', async () => {
    let asked = 0;
    const run = await runSteps(
      shellToolConfig,
      ws.sandbox,
      calls(['echo', 'execute', { command: 'echo "rm -rf /" && git --version >/dev/null; echo fine' }]),
      {
        authorize: async () => {
          asked += 1;
          return { approved: false, reason: 'no' };
        },
      },
    );
    expect(asked).toBe(0);
    expect(run.seen('echo').text).toContain('rm -rf /');
  });

  it('applies host rules added through the config factory', async () => {
    const config = createShellToolConfig({
      impactRules: [
        ({ program, args }) =>
          program === 'terraform' && args[0] === 'apply'
            ? { target: 'infrastructure', scope: 'cloud account', impact: 'Changes live infrastructure.' }
            : undefined,
      ],
    });
    const run = await runSteps(
      config,
      ws.sandbox,
      calls(['tf', 'execute', { command: 'TF_LOG=1 terraform apply -auto-approve' }]),
    );
    expect(run.seen('tf').text).toMatch(/^\[authorization\] execute: this call is high impact \(Changes live infrastructure\./);
  });
});
