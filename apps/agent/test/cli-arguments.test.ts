import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

describe('aibuddy command line', () => {
  it('prints the usage with --help and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('aibuddy run');
    expect(r.stdout).toContain('--defer-path');
    expect(r.stdout).toContain('view-call');
  });

  const bad: Array<[string, string[], RegExp]> = [
    ['an unknown command', ['fly'], /unknown command "fly"/],
    ['an unknown option', ['run', '--frobnicate'], /Unknown option '--frobnicate'/],
    ['both --yes and --no', ['run', 'x', '--yes', '--no'], /--yes and --no contradict/],
    ['a bad --defer-path', ['tools', '--defer-path', 'sideways'], /--defer-path must be auto, native or active-tools/],
    ['a model spec without provider', ['run', 'x', '--model', 'gpt-5'], /not a model spec.*anthropic:MODEL/],
    ['an unknown provider', ['run', 'x', '--model', 'mistral:large'], /not a model spec/],
    ['openai-compatible without --base-url', ['run', 'x', '--model', 'openai-compatible:llama'], /needs --base-url/],
    ['a bad --base-url', ['run', 'x', '--model', 'openai:gpt-5', '--base-url', 'localhost'], /not a URL/],
    ['an unquoted task', ['run', 'fix', 'the', 'bug'], /Quote the task/],
    ['a hostile task id', ['run', 'x', '--task-id', '../etc'], /--task-id "..\/etc" may only contain/],
    ['view-call without id', ['view-call'], /needs the tool call id/],
    ['a missing replay file', ['run', 'x', '--model', 'replay:/nonexistent/replay.json'], /cannot read the file \(ENOENT\)/],
  ];
  for (const [what, args, message] of bad) {
    it(`exits 2 and names the fix for ${what}`, async () => {
      const r = await runCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toContain('aibuddy --help');
    });
  }

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
});
