import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'vitest';
import { describeSandboxContract } from '@aibuddy/sandbox/test';
import { systemTool } from '@aibuddy/test-utils/system-tools';
import type { ISandbox } from '@aibuddy/sandbox';
import { createNodeSandbox } from './node-sandbox.js';

const destroy = (sandbox: ISandbox) => rmSync(sandbox.root, { recursive: true, force: true });
const tmp = () => mkdtempSync(join(tmpdir(), 'aibuddy-contract-'));

// Skipped with the reason where bubblewrap or ripgrep is missing, except in CI (where it fails).
describe.skipIf(systemTool('bwrap').skip || systemTool('rg').skip)('with the system tools', () => {
  describeSandboxContract({
    name: 'node (bubblewrap, ripgrep)',
    create: () => createNodeSandbox({ type: 'node', root: tmp(), isolation: 'required', killGraceMs: 200 }),
    destroy,
    capabilities: { available: true, exec: true },
  });
});

describeSandboxContract({
  name: 'node (unconfined, JavaScript grep)',
  create: () => createNodeSandbox({ type: 'node', root: tmp(), isolation: 'off', ripgrepPath: false, killGraceMs: 200 }),
  destroy,
  capabilities: { available: true, exec: true },
});
