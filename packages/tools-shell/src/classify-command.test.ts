import { describe, expect, it } from 'vitest';
import { HARMLESS, ISSUE_SPELLINGS, NEEDS_CONFIRMATION } from './classify-command.cases.js';
import { classifyCommand } from './classify-command.js';
import { assessCommandImpact } from './command-impact.js';

describe('the classifier table: high-impact spellings need confirmation', () => {
  it('holds the issue spellings and at least 150 more', () => {
    expect(ISSUE_SPELLINGS.length).toBeGreaterThanOrEqual(20);
    expect(NEEDS_CONFIRMATION.length - ISSUE_SPELLINGS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(NEEDS_CONFIRMATION).size).toBe(NEEDS_CONFIRMATION.length);
  });

  for (const command of NEEDS_CONFIRMATION) {
    it(`confirms ${JSON.stringify(command)}`, () => {
      const classification = classifyCommand(command);
      expect(classification.harmless, command).toBe(false);
      expect(classification.findings.length).toBeGreaterThan(0);
      const assessment = assessCommandImpact(command);
      expect(assessment, command).toBeDefined();
      expect(assessment!.target.length).toBeGreaterThan(0);
      expect(assessment!.scope.length).toBeGreaterThan(0);
      expect(assessment!.impact.length).toBeGreaterThan(10);
    });
  }
});

describe('the classifier table: read-only commands run without confirmation', () => {
  it('holds enough read-only cases', () => {
    expect(HARMLESS.length).toBeGreaterThanOrEqual(100);
  });
  for (const command of HARMLESS) {
    it(`runs ${JSON.stringify(command)}`, () => {
      const classification = classifyCommand(command);
      expect(
        classification.findings.map((f) => f.reason),
        command,
      ).toEqual([]);
      expect(classification.harmless).toBe(true);
      expect(assessCommandImpact(command)).toBeUndefined();
    });
  }
});

describe('hostile input', () => {
  // Lines of the largest size execute accepts (128 KiB), built to make a naive reader quadratic or
  // recurse without end: each must come back (the test's own timeout bounds it) and fail closed.
  const size = 128 * 1024 - 16;
  const hostile: Array<[string, string]> = [
    ['braces', `ls ${'{'.repeat(size)}`],
    ['brackets', `ls ${'['.repeat(size)}`],
    ['dollars', `ls ${'$'.repeat(size)}`],
    ['nested substitutions', `echo ${'"$('.repeat(size / 3)}`],
    ['closed substitutions', `echo ${'$('.repeat(size / 4)}ls${')'.repeat(size / 4)}`],
    ['wrappers', `${'env '.repeat(size / 4)}rm -rf build`],
    ['pipes', `${'ls | '.repeat(size / 5)}sh`],
    ['quotes', `echo ${"'a'".repeat(size / 3)} > .git/config`],
  ];
  for (const [name, line] of hostile) {
    it(`classifies a 128 KiB line of ${name} without hanging and does not let it through`, () => {
      // `ls` with odd arguments is still only ls; the others run rm or sh, or write into .git.
      expect(classifyCommand(line).harmless, name).toBe(name === 'brackets' || name === 'dollars' || name === 'braces');
      expect(() => assessCommandImpact(line)).not.toThrow();
    });
  }
});

describe('the working folder of the call', () => {
  it('resolves relative write targets from cwd, and distrusts a cwd inside .git or outside the workspace', () => {
    expect(classifyCommand('echo x > notes.txt', { cwd: 'src' }).harmless).toBe(true);
    expect(classifyCommand('echo x > config', { cwd: '.git' }).harmless).toBe(false);
    expect(classifyCommand('echo x > hooks/pre-commit', { cwd: 'sub/.git' }).harmless).toBe(false);
    expect(classifyCommand('echo x > ../.git/config', { cwd: 'src' }).harmless).toBe(false);
    expect(classifyCommand('git status', { cwd: '../other' }).harmless).toBe(false);
    expect(classifyCommand('echo x > /ws/out.txt', { workspaceRoot: '/ws' }).harmless).toBe(true);
    expect(classifyCommand('echo x > /ws/.git/config', { workspaceRoot: '/ws' }).harmless).toBe(false);
    expect(classifyCommand('echo x > .aibuddy/state.json', { protectedPaths: ['.aibuddy'] }).harmless).toBe(false);
  });
});
