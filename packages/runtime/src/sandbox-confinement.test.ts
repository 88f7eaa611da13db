// An approval lets a call start; it never widens what the call may touch. These tests approve
// calls that try to leave the workspace and check, on the real disk, that nothing outside changed.
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, resolveToolSet } from '@aibuddy/registry';
import { createNodeSandbox } from '@aibuddy/sandbox-node';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import { systemTool } from '@aibuddy/test-utils/system-tools';
import { createAiTools } from './create-ai-tools.js';
import { createConfirmationGate } from './confirmation-gate.js';
import type { RuntimeEvent } from './events.js';
import { runWith, withApprovalResponses } from './__fixtures__/confirmation-harness.js';
import type { RunnerName } from './__fixtures__/confirmation-harness.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function confinedWorkspace() {
  const base = await mkdtemp(join(tmpdir(), 'aibuddy-confine-'));
  cleanups.push(() => rm(base, { recursive: true, force: true }));
  const root = join(base, 'workspace');
  await mkdir(root);
  await writeFile(join(base, 'outside.txt'), 'precious\n');
  await mkdir(join(base, 'outside-dir'));
  await writeFile(join(base, 'outside-dir', 'keep.txt'), 'keep\n');
  await symlink(base, join(root, 'up')); // a way out, if paths were not checked through links
  const sandbox = await createNodeSandbox({ type: 'node', root, isolation: 'required' });
  cleanups.push(async () => void (await sandbox.close?.()));
  const everything = (target: string) => ({
    target,
    scope: 'outside the workspace, if allowed',
    impact: 'overwrites or deletes files',
  });
  const overwrite = defineTool({
    name: 'overwrite_file',
    description: 'Overwrites a file in the workspace.',
    inputSchema: z.object({ path: z.string(), content: z.string() }),
    impact: ({ path }) => everything(path),
    execute: ({ path, content }, ctx) => sandbox.writeFile(path, content, { signal: ctx.signal }),
  });
  const run = defineTool({
    name: 'run_command',
    description: 'Runs a shell command in the workspace.',
    inputSchema: z.object({ command: z.string() }),
    impact: ({ command }) => everything(command),
    execute: ({ command }, ctx) => sandbox.exec(command, { signal: ctx.signal, timeoutMs: 10_000 }),
  });
  const set = await resolveToolSet({
    configs: [{ key: 'confine', toolNames: ['overwrite_file', 'run_command'], create: () => [overwrite, run] }],
  });
  const untouched = async () => {
    expect(await readFile(join(base, 'outside.txt'), 'utf8')).toBe('precious\n');
    expect(await readFile(join(base, 'outside-dir', 'keep.txt'), 'utf8')).toBe('keep\n');
  };
  return { set, untouched };
}

const escapes = {
  toolCalls: [
    { toolName: 'overwrite_file', input: { path: '../outside.txt', content: 'pwned' }, id: 'w1' },
    { toolName: 'overwrite_file', input: { path: 'up/outside.txt', content: 'pwned' }, id: 'w2' },
    { toolName: 'run_command', input: { command: 'echo pwned > ../outside.txt; rm -rf ../outside-dir; echo done' }, id: 'x1' },
  ],
};

function expectConfined(model: Parameters<typeof lastToolResult>[0]) {
  for (const id of ['w1', 'w2']) {
    // Refused by the sandbox at execution, after the approval.
    expect(String(lastToolResult(model, id)?.output.value)).toMatch(/^\[execution\] overwrite_file: .*(outside|escape)/i);
  }
  // The command ran (it was approved) but under OS isolation: its writes outside never reach the host.
  const command = lastToolResult(model, 'x1')?.output;
  expect(command?.type).toBe('json');
  expect(command?.value).toMatchObject({ isolation: 'bubblewrap' });
}

// Needs bubblewrap (isolation: 'required'): skipped with the reason without it, except in CI.
describe.skipIf(systemTool('bwrap').skip).each(['generateText', 'streamText'] as RunnerName[])(
  'an approved call is still confined by the sandbox, through %s',
  (runner) => {
    it('approved while the call waits (host asks)', async () => {
      const { set, untouched } = await confinedWorkspace();
      const events: RuntimeEvent[] = [];
      const gate = createConfirmationGate({ ask: async () => ({ approved: true }) });
      const model = scriptedModel([escapes, { text: 'done' }]);
      const out = await runWith(runner, {
        model,
        tools: createAiTools(set, { confirmation: gate, onEvent: (e) => events.push(e) }),
      });
      expect(out.error).toBeUndefined();
      expect(events.filter((e) => e.type === 'confirm-decision' && e.approved)).toHaveLength(3);
      expectConfined(model);
      await untouched();
    });

    it("approved through the AI SDK's approval parts", async () => {
      const { set, untouched } = await confinedWorkspace();
      const gate = createConfirmationGate({ via: 'ai-sdk' });
      const first = await runWith(runner, {
        model: scriptedModel([escapes]),
        prompt: 'go',
        tools: createAiTools(set, { confirmation: gate }),
      });
      expect(first.approvalRequests.map((r) => r.toolCallId).sort()).toEqual(['w1', 'w2', 'x1']);
      const model = scriptedModel([{ text: 'done' }]);
      const out = await runWith(runner, {
        model,
        messages: withApprovalResponses(
          [{ role: 'user', content: 'go' }, ...first.messages],
          first.approvalRequests.map((r) => ({ approvalId: r.approvalId, approved: true })),
        ),
        tools: createAiTools(set, { confirmation: gate }),
      });
      expect(out.error).toBeUndefined();
      expectConfined(model);
      await untouched();
    });
  },
);
