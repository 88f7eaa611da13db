import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, stepCountIs } from 'ai';
import { resolveToolSet, ToolError } from '@aibuddy/registry';
import { createAiTools } from '@aibuddy/runtime';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseFrontmatter } from './frontmatter.js';
import { loadSkills } from './load-skills.js';
import { createSkillsConfig } from './skills-config.js';

let root: string;
let outside: string;

beforeAll(async () => {
  const base = await mkdtemp(join(tmpdir(), 'skills-'));
  root = join(base, 'skills');
  outside = join(base, 'secret.txt');
  await writeFile(outside, 'TOP SECRET');
  await mkdir(join(root, 'release-notes', 'templates'), { recursive: true });
  await writeFile(
    join(root, 'release-notes', 'SKILL.md'),
    '---\nname: release-notes\ndescription: >\n  Write release notes from merged pull requests.\n  Use when preparing a release.\n---\n# Procedure\n1. List merged PRs.\n2. Fill templates/notes.md.\n',
  );
  await writeFile(join(root, 'release-notes', 'templates', 'notes.md'), '## Highlights\n- ...\n');
  await writeFile(join(root, 'release-notes', 'checklist.txt'), 'check links');
  await symlink(outside, join(root, 'release-notes', 'leak.txt'));
  await mkdir(join(root, 'db-migrate'));
  await writeFile(
    join(root, 'db-migrate', 'SKILL.md'),
    '---\nname: "db-migrate"\ndescription: Plan and run a database migration safely.\n---\nBack up first.\n',
  );
  await mkdir(join(root, 'broken'));
  await writeFile(join(root, 'broken', 'SKILL.md'), 'no frontmatter here');
  await mkdir(join(root, 'no-desc'));
  await writeFile(join(root, 'no-desc', 'SKILL.md'), '---\nname: no-desc\n---\nbody');
});

async function viewSkill() {
  const set = await resolveToolSet({ configs: [createSkillsConfig({ dir: root })] });
  const definition = set.tools[0]!.definition;
  const run = async (input: Record<string, unknown>) => definition.execute(input, {} as never);
  return { set, definition, run };
}

describe('loadSkills', () => {
  it('reads name and description, and reports unusable folders', async () => {
    const loaded = await loadSkills(root);
    expect(loaded.skills.map((s) => [s.name, s.description])).toEqual([
      ['db-migrate', 'Plan and run a database migration safely.'],
      ['release-notes', 'Write release notes from merged pull requests. Use when preparing a release.'],
    ]);
    expect(loaded.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/no frontmatter/),
      expect.stringMatching(/"description" is missing/),
    ]);
  });

  it('parses quoted values and | blocks', () => {
    expect(parseFrontmatter("---\nname: 'a'\ndescription: |\n  one\n  two\n---\nbody")).toMatchObject({
      fields: { name: 'a', description: 'one\ntwo' },
      body: 'body',
    });
  });

  it('reads comments, nested metadata and flow lists as YAML means them (issue 18)', () => {
    const text = [
      '---',
      '# a comment line',
      'name: db-migrate # trailing comment',
      'description: "Plan: then run a migration"',
      'metadata:',
      '  owner: data-team',
      '  tags: [sql, ops]',
      'allowed-tools: [read_file, execute]',
      '---',
      'Steps.',
    ].join('\n');
    const parsed = parseFrontmatter(text)!;
    expect(parsed.error).toBeUndefined();
    expect(parsed.fields).toEqual({
      name: 'db-migrate',
      description: 'Plan: then run a migration',
      'allowed-tools': 'read_file, execute',
    });
    expect(parsed.data.metadata).toEqual({ owner: 'data-team', tags: ['sql', 'ops'] });
    expect(parsed.body).toBe('Steps.');
  });

  it('reports invalid YAML instead of guessing', () => {
    const parsed = parseFrontmatter('---\nname: [unclosed\ndescription: x\n---\nbody')!;
    expect(parsed.error).toBeTruthy();
    expect(parsed.fields).toEqual({});
  });
});

describe('view_skill', () => {
  it('shows only names and purposes up front', async () => {
    const { set, definition } = await viewSkill();
    expect(set.instructions[0]?.text).toContain(
      '- release-notes: Write release notes from merged pull requests. Use when preparing a release.',
    );
    expect(definition.description).toContain('- db-migrate: Plan and run a database migration safely.');
    expect(set.instructions[0]?.text).not.toContain('List merged PRs');
  });

  it('returns the procedure and its reference files, and reads one', async () => {
    const { run } = await viewSkill();
    const full = (await run({ name: 'release-notes' })) as { procedure: string; files: string[] };
    expect(full.procedure).toBe('# Procedure\n1. List merged PRs.\n2. Fill templates/notes.md.');
    expect(full.files).toEqual(['checklist.txt', 'templates/notes.md']);
    expect(await run({ name: 'release-notes', file: 'templates/notes.md' })).toMatchObject({
      content: '## Highlights\n- ...\n',
      truncated: false,
    });
  });

  it('stays inside the skill folder', async () => {
    const { run } = await viewSkill();
    const attempt = (file: string) => run({ name: 'release-notes', file }).catch((e: unknown) => e as ToolError);
    const dots = await attempt('../db-migrate/SKILL.md');
    expect(ToolError.isInstance(dots) && dots.stage).toBe('parameters');
    expect((dots as Error).message).toMatch(/contains "\.\."/);
    const absolute = await attempt(outside);
    expect((absolute as Error).message).toMatch(/absolute path/);
    const link = await attempt('leak.txt');
    expect((link as ToolError).stage).toBe('authorization');
    expect((link as Error).message).not.toContain('TOP SECRET');
    expect(((await attempt('missing.md')) as Error).message).toMatch(/has no file "missing.md"/);
    const unknown = await run({ name: 'nope' }).catch((e: unknown) => e as ToolError);
    expect((unknown as ToolError).message).toMatch(/no skill "nope".*db-migrate, release-notes/);
  });

  it('runs under generateText; the model reads the procedure as text', async () => {
    const { set } = await viewSkill();
    const model = scriptedModel([
      { toolCalls: [{ toolName: 'view_skill', input: { name: 'db-migrate' }, id: 'v1' }] },
      { text: 'ok' },
    ]);
    await generateText({ model, tools: createAiTools(set), prompt: 'migrate', stopWhen: stepCountIs(3) });
    const output = lastToolResult(model, 'v1')?.output;
    expect(output?.type).toBe('text');
    expect(String(output?.value)).toMatch(/^# Skill: db-migrate\n\nBack up first\.\n\n## Reference files[^\n]*\n\(none\)$/);
  });

  it('a folder with no skill yields nothing, with a reason', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'no-skills-'));
    const set = await resolveToolSet({ configs: [createSkillsConfig({ dir: empty })] });
    expect(set.tools).toEqual([]);
    expect(set.excluded[0]).toEqual({ key: 'skills', reason: `no skills in ${empty} (no <name>/SKILL.md)` });
  });
});
