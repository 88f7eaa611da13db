import { describe, expect, it } from 'vitest';
import { CommandPolicyError, createCommandPolicy, DEVELOPMENT_ALLOW_RULES, parseAllowRule } from './command-policy.js';

describe('allow rules match whole words of each parsed simple command', () => {
  const policy = createCommandPolicy({ allow: ['npm test', 'cargo build:*'] });
  const allowed = [
    'npm test',
    'npm test -- --watch',
    'npm test 2>&1 | tail -20',
    'timeout 600 npm test',
    'cd packages/app && npm test',
    'LANG=C npm test',
    'cargo build --release',
    '/usr/bin/npm test',
  ];
  const asked = [
    'npm testx',
    'npm',
    'npm run test',
    'npm test; rm -rf /',
    'npm test && npm publish',
    'npm test > /etc/x',
    'npm test $(rm -rf x)',
    'PATH=. npm test',
    'sudo npm test',
    'bash -c "npm test"',
    '"npm test"',
    'npm "test"x',
  ];
  for (const command of allowed) it(`allows ${command}`, () => expect(policy.assess(command)).toBeUndefined());
  for (const command of asked) it(`asks for ${command}`, () => expect(policy.assess(command)).toBeDefined());

  it('names the rules that covered a line', () => {
    expect(policy.classify('npm test && cargo build').allowedBy).toEqual(['npm test', 'cargo build']);
  });

  it('refuses unusable rules before anything runs', () => {
    for (const bad of [
      '',
      '   ',
      'npm test; rm -rf /',
      'npm test > x',
      'npm $X',
      'FOO=1 npm test',
      'sudo make install',
      'doas ls',
      'ls *.ts',
    ]) {
      expect(() => parseAllowRule(bad), bad).toThrow(CommandPolicyError);
    }
    try {
      parseAllowRule('sudo make install', 'config.json');
    } catch (error) {
      expect(CommandPolicyError.isInstance(error)).toBe(true);
      expect((error as CommandPolicyError).stage).toBe('authorization');
      expect((error as Error).message).toMatch(/\(from config\.json\).*elevated/);
    }
  });

  it('keeps every default rule usable', () => {
    expect(() => createCommandPolicy({ allow: DEVELOPMENT_ALLOW_RULES })).not.toThrow();
    expect(createCommandPolicy({ allow: DEVELOPMENT_ALLOW_RULES }).assess('pnpm test -- --run')).toBeUndefined();
  });
});
