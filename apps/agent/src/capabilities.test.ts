import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, requireCapability } from '@aibuddy/registry';
import type { ServerToolConfig } from '@aibuddy/registry';
import { parseCommandLine } from './args.js';
import { composeAgent } from './compose.js';
import { chooseHostConfirmation } from './confirmation.js';
import { createModel } from './create-model.js';

// The example group: a deploy tool offered only to tasks granted the `deploy` capability.
const deploy = defineTool({
  name: 'deploy_preview',
  description: 'Deploys a preview.',
  inputSchema: z.object({}),
  execute: () => 'deployed',
});
const deployConfig: ServerToolConfig = {
  key: 'deploy',
  toolNames: ['deploy_preview'],
  requires: { preconditions: [requireCapability('deploy')] },
  create: () => [deploy],
};
const extra = {
  extraConfigs: [deployConfig],
  extraMetas: { deploy: { title: 'Deploy', description: 'Preview deployments.', category: 'integration' as const } },
  extraNameMap: { deploy_preview: 'deploy' },
};

async function report(capabilities?: string[]) {
  const agent = await composeAgent({
    workspace: mkdtempSync(join(tmpdir(), 'aibuddy-caps-')),
    dataDir: mkdtempSync(join(tmpdir(), 'aibuddy-caps-state-')),
    taskId: 't1',
    model: createModel('demo', { demoScript: { steps: [{ text: 'x' }] } }),
    confirmation: chooseHostConfirmation({ flag: 'reject', interactive: false, demo: false }),
    ...extra,
    ...(capabilities ? { capabilities } : {}),
  });
  await agent.close();
  return agent.report;
}

describe('task capabilities (--capability)', () => {
  it('a group that requires a capability is excluded without it, with the reason, and offered with it', async () => {
    const without = await report();
    expect(without.direct.map((t) => t.name)).not.toContain('deploy_preview');
    expect(without.excluded).toEqual(
      expect.arrayContaining([{ key: 'deploy', reason: expect.stringMatching(/deploy capability not available/) }]),
    );
    const granted = await report(['deploy']);
    expect(granted.direct.map((t) => t.name)).toContain('deploy_preview');
    expect(granted.excluded.map((e) => e.key)).not.toContain('deploy');
  });

  it('parses --capability (repeatable, deduplicated) and refuses a malformed name with exit-2 wording', () => {
    expect(
      parseCommandLine(['run', 'x', '--capability', 'deploy', '--capability', 'team', '--capability', 'deploy']),
    ).toMatchObject({
      options: { capabilities: ['deploy', 'team'] },
    });
    expect(parseCommandLine(['tools', '--capability', 'deploy'])).toMatchObject({ options: { capabilities: ['deploy'] } });
    expect(() => parseCommandLine(['run', 'x', '--capability', 'no spaces'])).toThrow(
      /--capability "no spaces" is not a capability name/,
    );
    expect(() => parseCommandLine(['run', 'x', '--chunk-timeout', '0'])).toThrow(/--chunk-timeout must be a positive number/);
    expect(parseCommandLine(['run', 'x', '--chunk-timeout', '1.5'])).toMatchObject({ options: { chunkTimeoutSeconds: 1.5 } });
    expect(() => parseCommandLine(['run', 'x', '--resume'])).toThrow(/--resume .* --task-id/);
    expect(parseCommandLine(['view-call', 'c1', '--part', 'input'])).toMatchObject({ part: 'input' });
    expect(parseCommandLine(['tasks', '--json', '--data-dir', 'd'])).toEqual({
      command: 'tasks',
      json: true,
      dataDir: 'd',
      workspace: undefined,
    });
  });
});
