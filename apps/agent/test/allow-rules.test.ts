import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, readEvents, replay, runCli, tempDir, workspaceIn } from './helpers.js';

/** A config home of its own, so a config file of the machine never leaks into the test. */
function env(configHome = tempDir('aibuddy-xdg-')): Record<string, string> {
  return cleanEnv({ XDG_CONFIG_HOME: configHome });
}

describe('allow rules: --allow, the config file, and what aibuddy tools shows', { timeout: 120_000 }, () => {
  it('shows the rules in force with their source, in text and JSON', async () => {
    const dir = tempDir();
    const workspace = workspaceIn(dir);
    const config = join(dir, 'aibuddy.json');
    writeFileSync(config, JSON.stringify({ allow: ['make lint'] }));
    const json = await runCli(
      ['tools', '--json', '--workspace', workspace, '--allow', 'npm test', '--allow', 'cargo clippy', '--config', config],
      { env: env() },
    );
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.commandPolicy.allow).toEqual(
      expect.arrayContaining([
        { rule: 'npm test', source: 'default' },
        { rule: 'make lint', source: config },
        { rule: 'npm test', source: '--allow' },
        { rule: 'cargo clippy', source: '--allow' },
      ]),
    );
    // The data folder lives outside the workspace (a --data-dir inside it is refused), so only .git is listed.
    expect(report.commandPolicy.protectedPaths).toEqual(['.git (every one, at any depth)']);

    const text = await runCli(['tools', '--workspace', workspace, '--allow', 'cargo clippy'], { env: env() });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^allow rules \(\d+\):$/m);
    expect(text.stdout).toContain('  cargo clippy  [--allow]');
    expect(text.stdout).toContain('  pnpm test  [default]');
  });

  it('reads $XDG_CONFIG_HOME/aibuddy/config.json, and "defaultAllow": false drops the defaults', async () => {
    const home = tempDir('aibuddy-xdg-');
    mkdirSync(join(home, 'aibuddy'));
    writeFileSync(join(home, 'aibuddy', 'config.json'), JSON.stringify({ allow: ['just test'], defaultAllow: false }));
    const r = await runCli(['tools', '--json', '--workspace', workspaceIn(tempDir())], { env: env(home) });
    expect(r.code).toBe(0);
    // No --model: `tools` describes the demo composition, which adds its own rule.
    expect(JSON.parse(r.stdout).commandPolicy.allow).toEqual([
      { rule: 'just test', source: join(home, 'aibuddy', 'config.json') },
      { rule: 'node report.mjs', source: 'demo' },
    ]);
  });

  it('refuses a config file inside the workspace, naming the fix', async () => {
    const dir = tempDir();
    const inside = join(dir, 'aibuddy.json');
    writeFileSync(inside, JSON.stringify({ allow: ['rm'] }));
    const r1 = await runCli(['tools', '--workspace', dir, '--config', inside], { env: env() });
    expect(r1.code).toBe(1);
    expect(r1.stderr).toMatch(
      /\[authorization\] the config file .* is inside the workspace .* Fix: move it outside the workspace/,
    );
  });

  it('refuses an invalid config file, a compound rule, an empty --allow and a sudo rule', async () => {
    const dir = tempDir();
    const outside = join(tempDir(), 'bad.json');
    writeFileSync(outside, JSON.stringify({ allow: 'npm test' }));
    const r2 = await runCli(['tools', '--workspace', workspaceIn(dir), '--config', outside], { env: env() });
    expect(r2.code).toBe(1);
    expect(r2.stderr).toMatch(/\[authorization\] the config file .*bad\.json is not a valid aibuddy config: allow: /);

    writeFileSync(outside, JSON.stringify({ allow: ['npm test; rm -rf /'] }));
    const r3 = await runCli(['tools', '--workspace', workspaceIn(dir), '--config', outside], { env: env() });
    expect(r3.code).toBe(1);
    expect(r3.stderr).toMatch(/is not one plain command/);

    const r4 = await runCli(['tools', '--allow', ''], { env: env() });
    expect(r4.code).toBe(2);
    expect(r4.stderr).toMatch(/--allow needs a command prefix/);

    const r5 = await runCli(['tools', '--workspace', workspaceIn(dir), '--allow', 'sudo make install'], { env: env() });
    expect(r5.code).toBe(1);
    expect(r5.stderr).toMatch(/elevated commands always need confirmation/);
  });

  it('runs an allowed command at once and rejects what no rule covers (no terminal: nobody can approve)', async () => {
    const dir = tempDir();
    const workspace = workspaceIn(dir);
    mkdirSync(join(workspace, 'build'), { recursive: true });
    writeFileSync(join(workspace, 'build', 'keep.txt'), 'keep');
    const events = join(dir, 'events.jsonl');
    const model = replay(dir, [
      { toolCalls: [{ id: 'allowed', toolName: 'execute', input: { command: 'node --print 6*7' } }] },
      { toolCalls: [{ id: 'chained', toolName: 'execute', input: { command: 'node --print 1; rm -rf build' } }] },
      { toolCalls: [{ id: 'prefix', toolName: 'execute', input: { command: 'rm --rec build' } }] },
      { toolCalls: [{ id: 'git', toolName: 'execute', input: { command: 'git status 2>&1 | head -1; ls build' } }] },
      { text: 'done' },
    ]);
    const r = await runCli(
      ['run', 'go', '--model', model, '--workspace', workspace, '--events', events, '--allow', 'node --print'],
      { env: env() },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/allow: {5}the development defaults \(tests, builds\) \+ "node --print" \[--allow\]/);
    const log = readEvents(events);
    expect(log.filter((e) => e.type === 'confirm-request').map((e) => e.toolCallId)).toEqual(['chained', 'prefix']);
    const result = (id: string) => log.find((e) => e.type === 'tool-result' && e.toolCallId === id)!;
    expect(JSON.stringify(result('allowed').model)).toContain('42');
    expect(JSON.stringify(result('prefix').model)).toMatch(/reject|denied/i);
    expect(JSON.stringify(result('git').model)).toContain('keep.txt');
    expect(existsSync(join(workspace, 'build', 'keep.txt'))).toBe(true);
  });
});
