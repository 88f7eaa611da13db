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
      expect(classification.findings.map((f) => f.reason), command).toEqual([]);
      expect(classification.harmless).toBe(true);
      expect(assessCommandImpact(command)).toBeUndefined();
    });
  }
});
