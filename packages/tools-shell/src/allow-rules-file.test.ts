import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAllowRules } from './allow-rules-file.js';
import { CommandPolicyError, DEVELOPMENT_ALLOW_RULES } from './command-policy.js';

const root = mkdtempSync(join(tmpdir(), 'allow-rules-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const workspace = join(root, 'ws');
mkdirSync(workspace);

function file(name: string, content: unknown): string {
  const path = join(root, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

function failure(run: () => unknown): CommandPolicyError {
  try {
    run();
  } catch (error) {
    if (CommandPolicyError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a CommandPolicyError');
}

describe('loadAllowRules', () => {
  it('orders the rules: defaults, the file, then each extra source, each with its source', () => {
    const path = file('config.json', { allow: ['just test'] });
    const { allow, file: read } = loadAllowRules({
      file: path,
      workspace,
      extra: [
        { rules: ['cargo clippy'], source: '--allow' },
        { rules: ['node report.mjs'], source: 'demo' },
      ],
    });
    expect(read).toBe(path);
    expect(allow.slice(0, DEVELOPMENT_ALLOW_RULES.length).every((r) => r.source === 'default')).toBe(true);
    expect(allow.slice(DEVELOPMENT_ALLOW_RULES.length).map((r) => [r.rule, r.source])).toEqual([
      ['just test', path],
      ['cargo clippy', '--allow'],
      ['node report.mjs', 'demo'],
    ]);
  });

  it('drops the defaults on "defaultAllow": false; an absent optional file is no file', () => {
    const path = file('no-defaults.json', { defaultAllow: false });
    expect(loadAllowRules({ file: path, workspace }).allow).toEqual([]);
    const none = loadAllowRules({ file: join(root, 'absent.json'), workspace });
    expect(none.file).toBeUndefined();
    expect(none.allow).toHaveLength(DEVELOPMENT_ALLOW_RULES.length);
  });

  it('refuses a file inside the workspace, also when reached through a link', () => {
    const inside = join(workspace, 'aibuddy.json');
    writeFileSync(inside, JSON.stringify({ allow: ['rm'] }));
    symlinkSync(inside, join(root, 'looks-outside.json'));
    for (const path of [inside, join(root, 'looks-outside.json')]) {
      const error = failure(() => loadAllowRules({ file: path, workspace }));
      expect(error.stage).toBe('authorization');
      expect(error.message).toMatch(/is inside the workspace .*it is not read\. Fix: move it outside the workspace/);
    }
  });

  it('names the file and the fix for a missing required file, bad JSON and a bad shape', () => {
    expect(failure(() => loadAllowRules({ file: join(root, 'gone.json'), required: true, workspace })).message).toMatch(
      /gone\.json cannot be read \(ENOENT\)\. Fix: check the path/,
    );
    expect(failure(() => loadAllowRules({ file: file('bad.json', '{"allow": ['), workspace })).message).toMatch(
      /bad\.json is not valid JSON .*Fix: write it as/,
    );
    expect(failure(() => loadAllowRules({ file: file('shape.json', { allow: 'npm test' }), workspace })).message).toMatch(
      /shape\.json is not a valid aibuddy config: allow: .*Fix: the file takes/,
    );
    expect(failure(() => loadAllowRules({ file: file('extra.json', { allowed: [] }), workspace })).message).toMatch(
      /\(top level\): Unrecognized key/i,
    );
  });

  it('refuses a compound or elevated rule, naming where it came from', () => {
    const path = file('compound.json', { allow: ['npm test; rm -rf /'] });
    expect(failure(() => loadAllowRules({ file: path, workspace })).message).toMatch(
      /\(from .*compound\.json\) is not one plain command/,
    );
    expect(
      failure(() => loadAllowRules({ workspace, extra: [{ rules: ['sudo make install'], source: '--allow' }] })).message,
    ).toMatch(/\(from --allow\) would run commands as root/);
  });
});
