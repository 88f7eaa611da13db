import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { parseFrontmatter } from './frontmatter.js';

/** A skill found on disk. The model first sees only `name` and `description`. */
export interface Skill {
  /** The skill's name (frontmatter `name`). */
  name: string;
  /** What it is for and when to use it (frontmatter `description`). */
  description: string;
  /** The skill's folder (real path). */
  dir: string;
  /** The full `SKILL.md` text. */
  text: string;
  /** The procedure: `SKILL.md` after its frontmatter. */
  body: string;
}

/** A skill folder that could not be used, and why. */
export interface SkillProblem {
  /** The folder. */
  dir: string;
  /** What is wrong and what to change. */
  message: string;
}

/** The skills of a folder, and the folders that were skipped with their reason. */
export interface LoadedSkills {
  /** Valid skills, sorted by name. */
  skills: Skill[];
  /** Skipped folders. */
  problems: SkillProblem[];
}

const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** Descriptions longer than this are cut in the listing the model sees (the full text stays in SKILL.md). */
export const MAX_SKILL_DESCRIPTION = 1024;

/**
 * Reads a folder of skills: each `<name>/SKILL.md` with `name` and `description` frontmatter.
 * A folder without a usable `SKILL.md` is skipped and reported; a missing root yields no skills
 * and one problem. Symlinked skill folders are not followed.
 */
export async function loadSkills(root: string): Promise<LoadedSkills> {
  const result: LoadedSkills = { skills: [], problems: [] };
  let realRoot: string;
  let entries: string[];
  try {
    realRoot = await realpath(root);
    entries = (await readdir(realRoot)).sort();
  } catch (error) {
    result.problems.push({
      dir: root,
      message: `the skills folder cannot be read (${(error as Error).message}); check the --skills path.`,
    });
    return result;
  }
  const names = new Set<string>();
  for (const entry of entries) {
    if (entry.startsWith('.')) continue;
    const dir = join(realRoot, entry);
    const stat = await lstat(dir).catch(() => undefined);
    if (!stat?.isDirectory()) continue;
    let text: string;
    try {
      const file = join(dir, 'SKILL.md');
      if (!(await lstat(file)).isFile()) throw new Error('SKILL.md is not a regular file');
      text = await readFile(file, 'utf8');
    } catch (error) {
      result.problems.push({
        dir,
        message: `no readable SKILL.md (${(error as Error).message}); add <name>/SKILL.md with name and description frontmatter.`,
      });
      continue;
    }
    const parsed = parseFrontmatter(text);
    if (!parsed) {
      result.problems.push({ dir, message: 'SKILL.md has no frontmatter; start it with ---, name: ..., description: ..., ---.' });
      continue;
    }
    if (parsed.error) {
      result.problems.push({
        dir,
        message: `the frontmatter of SKILL.md is not valid YAML (${parsed.error}); fix it (quote values that contain ": ").`,
      });
      continue;
    }
    const name = parsed.fields.name?.trim() ?? '';
    const description = parsed.fields.description?.trim() ?? '';
    if (!SKILL_NAME.test(name)) {
      result.problems.push({
        dir,
        message: `frontmatter "name" ${JSON.stringify(name)} must be 1-64 lowercase letters, digits and hyphens.`,
      });
      continue;
    }
    if (description === '') {
      result.problems.push({ dir, message: 'frontmatter "description" is missing; say what the skill does and when to use it.' });
      continue;
    }
    if (names.has(name)) {
      result.problems.push({ dir, message: `another skill is already named "${name}"; give each skill its own name.` });
      continue;
    }
    names.add(name);
    result.skills.push({ name, description, dir, text, body: parsed.body });
  }
  result.skills.sort((a, b) => a.name.localeCompare(b.name));
  return result;
}
