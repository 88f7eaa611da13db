import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtures, runCli, tempDir } from './helpers.js';

describe('aibuddy tools', { timeout: 120_000 }, () => {
  it('prints direct, deferred (with the reason), excluded and the defer path with its reason', async () => {
    const dir = tempDir();
    const r = await runCli(['tools', '--workspace', dir, '--skills', join(fixtures, 'skills'), '--defer-path', 'active-tools']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^defer path: active-tools \(forced by --defer-path active-tools\)/m);
    // With no model and no key, tools describes the demo composition: its toolbox server is deferred.
    expect(r.stdout).toMatch(/direct \(\d+\): ls, read_file, write_file, edit_file, glob, grep, execute, .*view_skill/);
    expect(r.stdout).toMatch(/deferred \(12\), found through tool_search:\n {2}toolbox: toolbox__get_weather/);
    expect(r.stdout).toMatch(/why: "toolbox" has 12 tools, more than 10/);
    expect(r.stdout).toMatch(/excluded:\n {2}interaction: no interaction in this host/);
  });
});
