import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeSandboxContract } from '@aibuddy/sandbox/test';
import type { ISandbox } from '@aibuddy/sandbox';
import { createNodeSandbox } from './node-sandbox.js';

const destroy = (sandbox: ISandbox) => rmSync(sandbox.root, { recursive: true, force: true });
const tmp = () => mkdtempSync(join(tmpdir(), 'aibuddy-contract-'));

describeSandboxContract({
  name: 'node (bubblewrap, ripgrep)',
  create: () => createNodeSandbox({ type: 'node', root: tmp(), isolation: 'required', killGraceMs: 200 }),
  destroy,
  capabilities: { available: true, exec: true },
});

describeSandboxContract({
  name: 'node (unconfined, JavaScript grep)',
  create: () => createNodeSandbox({ type: 'node', root: tmp(), isolation: 'off', ripgrepPath: false, killGraceMs: 200 }),
  destroy,
  capabilities: { available: true, exec: true },
});
