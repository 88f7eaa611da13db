// In the PID-namespace fallback (no bubblewrap), the command must not be the namespace's first
// process: the kernel drops signals from outside to a PID 1 without a handler, so a `bash` there
// shrugged off the timeout's SIGTERM, ran on to its next command and lived out the whole grace.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pidNamespacePrefix } from './isolation.js';
import { createNodeSandbox, type NodeSandbox } from './node-sandbox.js';

// util-linux's unshare and setpriv; where the OS refuses namespaces there is nothing to test.
const available = 'prefix' in pidNamespacePrefix();
const TIMEOUT = 400;
// Long enough that only SIGKILL at the end of the grace could stop a command that ignored SIGTERM.
const GRACE = 20_000;

let root: string;
let sandbox: NodeSandbox;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'aibuddy-pidns-'));
  sandbox = await createNodeSandbox({ type: 'node', root, isolation: 'off', killGraceMs: GRACE, defaultTimeoutMs: TIMEOUT });
});

afterEach(async () => {
  await sandbox.close();
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!available)('exec in a PID namespace', () => {
  it('runs there (the premise of these tests)', () => {
    expect(sandbox.describe()).toMatchObject({ mode: 'pid-namespace', killsTree: true });
  });

  it('a timeout stops a multi-command script at SIGTERM, not at the end of the grace', async () => {
    const started = Date.now();
    const result = await sandbox.exec('echo started; sleep 15; echo never');
    expect(result.timedOut).toBe(true);
    expect(result.stdout).toContain('started');
    expect(result.stdout).not.toContain('never');
    expect(Date.now() - started).toBeLessThan(GRACE / 2);
    expect(result.signal).toBe('SIGTERM');
  });

  it('an abort stops it the same way', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const result = await sandbox.exec('sleep 15; echo never', { signal: controller.signal, timeoutMs: 60_000 });
    expect(result.aborted).toBe(true);
    expect(result.stdout).not.toContain('never');
    expect(Date.now() - started).toBeLessThan(GRACE / 2);
  });

  it('keeps the exit code of a command that ends by itself', async () => {
    const result = await sandbox.exec('echo out; echo err >&2; exit 7');
    expect(result).toMatchObject({ exitCode: 7, signal: null, timedOut: false });
    expect(result.stdout).toBe('out\n');
    expect(result.stderr).toBe('err\n');
  });
});
