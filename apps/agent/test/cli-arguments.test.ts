import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

describe('aibuddy command line', { timeout: 120_000 }, () => {
  it('prints the usage with --help and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('aibuddy run');
    expect(r.stdout).toContain('--defer-path');
    expect(r.stdout).toContain('view-call');
  });

  // Every parsing rule is unit-tested in src/args.test.ts; here the built binary shows the exit code and hint.
  it('exits 2 and names the fix for a bad argument', async () => {
    const r = await runCli(['run', 'x', '--yes', '--no']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--yes and --no contradict each other; pass at most one/);
    expect(r.stderr).toContain('aibuddy --help');
  });

  // Node's recursive mkdir never settles under /proc (mkdir answers ENOENT there): these used to hang.
  it('exits 2 at once for an --events file where no folder can be created', async () => {
    const r = await runCli(['run', '--events', '/proc/aibuddy-no-such/events.jsonl']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--events \/proc\/aibuddy-no-such\/events\.jsonl: cannot open the file for appending/);
  });

  it('exits 1 at once for a --data-dir where no folder can be created, naming the stage and the fix', async () => {
    const r = await runCli(['run', '--data-dir', '/proc/aibuddy-no-such/data']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\[execution\] the task store under \/proc\/aibuddy-no-such\/data cannot be used: .*Fix: /);
  });

  it('exits 2 for a replay script of the wrong shape, naming the step', async () => {
    const dir = tempDir();
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ steps: [{ toolCalls: [{ input: {} }] }] }));
    const r = await runCli(['run', 'x', '--model', `replay:${file}`, '--workspace', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/step 0, call 0: "toolName" must be a non-empty string/);
  });

  it('exits 1 naming the key when a real provider has no API key', async () => {
    const dir = tempDir();
    const r = await runCli(['run', 'x', '--model', 'anthropic:claude-sonnet-4-5', '--workspace', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\[model\].*ANTHROPIC_API_KEY is not set\. Fix: export ANTHROPIC_API_KEY/);
  });

  it('exits 1 with the stage when the run fails (a replay script that ends too early)', async () => {
    const dir = tempDir();
    const file = join(dir, 'short.json');
    writeFileSync(file, JSON.stringify({ steps: [{ toolCalls: [{ toolName: 'ls', input: {} }] }] }));
    const r = await runCli(['run', 'x', '--model', `replay:${file}`, '--workspace', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/run failed: \[model\] the replay script has 1 step and all were used/);
  });
});
