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

  it('says how commands are confined: the sandbox mode and whether the process tree dies with the call', async () => {
    const dir = tempDir();
    const json = await runCli(['tools', '--json', '--workspace', dir]);
    expect(json.code).toBe(0);
    const { isolation } = JSON.parse(json.stdout) as { isolation: { mode: string; killsTree: boolean; limits: string } };
    expect(['bubblewrap', 'pid-namespace', 'none']).toContain(isolation.mode);
    expect(isolation.killsTree).toBe(isolation.mode !== 'none');
    // CI installs bubblewrap and runs as root: there it must be the mode in force.
    if (process.env.CI) expect(isolation.mode).toBe('bubblewrap');
    const text = await runCli(['tools', '--workspace', dir]);
    expect(text.stdout).toMatch(
      new RegExp(`^sandbox: ${isolation.mode} \\((process tree dies with the call|NOT tree-killing)`, 'm'),
    );
  });
});
