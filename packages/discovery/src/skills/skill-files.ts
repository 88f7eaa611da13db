import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { ToolError } from '@aibuddy/registry';
import type { Skill } from './load-skills.js';

/** Most reference files listed for one skill. */
export const MAX_LISTED_FILES = 200;
/** Largest reference file returned whole (characters); longer files are cut with a note. */
export const MAX_FILE_CHARS = 100_000;
const MAX_DEPTH = 6;

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The reference files of a skill (every regular file in its folder except `SKILL.md`), as paths
 * relative to the folder with `/` separators. Symlinks are listed only when they resolve to a
 * file inside the folder.
 */
export async function listSkillFiles(skill: Pick<Skill, 'dir'>): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH || files.length >= MAX_LISTED_FILES) return;
    const entries = (await readdir(dir, { withFileTypes: true }).catch(() => [])).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (files.length >= MAX_LISTED_FILES) return;
      if (entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      const rel = relative(skill.dir, full).split(sep).join('/');
      if (entry.isDirectory()) await walk(full, depth + 1);
      else if (entry.isFile()) {
        if (rel !== 'SKILL.md') files.push(rel);
      } else if (entry.isSymbolicLink()) {
        const target = await realpath(full).catch(() => undefined);
        if (target && inside(skill.dir, target) && (await stat(target).catch(() => undefined))?.isFile()) files.push(rel);
      }
    }
  };
  await walk(skill.dir, 0);
  return files;
}

/** A reference file's text, and whether it was cut. */
export interface SkillFileContent {
  /** The path as asked (relative to the skill folder). */
  path: string;
  /** The text (at most `MAX_FILE_CHARS` characters). */
  content: string;
  /** Whether the file was longer and got cut. */
  truncated: boolean;
}

/**
 * Reads one reference file of a skill, confined to the skill's folder: absolute paths and `..`
 * are refused (stage `parameters`), and so is anything that resolves outside the folder through a
 * symlink (stage `authorization`), before a byte is read.
 */
export async function readSkillFile(
  skill: Pick<Skill, 'dir' | 'name'>,
  path: string,
  toolName = 'view_skill',
): Promise<SkillFileContent> {
  const fail = (message: string, stage: 'parameters' | 'authorization' = 'parameters', hint?: string): never => {
    throw new ToolError(message, { stage, toolName, retryable: stage === 'parameters', ...(hint ? { hint } : {}) });
  };
  const trimmed = path.trim();
  if (trimmed === '')
    fail('the file path is empty.', 'parameters', 'Call view_skill without "file" to list the reference files.');
  if (isAbsolute(trimmed) || /^[a-zA-Z]:[\\/]/.test(trimmed) || trimmed.startsWith('\\')) {
    fail(`"${path}" is an absolute path; give a path relative to the skill folder, as listed by view_skill.`);
  }
  if (trimmed.split(/[\\/]/).includes('..')) {
    fail(`"${path}" contains "..": only files inside the skill "${skill.name}" can be read.`);
  }
  const full = join(skill.dir, trimmed);
  let real: string;
  try {
    real = await realpath(full);
  } catch {
    return fail(
      `the skill "${skill.name}" has no file "${path}".`,
      'parameters',
      'Call view_skill without "file" to list its reference files.',
    );
  }
  if (!inside(skill.dir, real)) {
    fail(`"${path}" resolves outside the skill folder (through a symlink); reading it is not allowed.`, 'authorization');
  }
  const info = await lstat(real);
  if (!info.isFile())
    fail(`"${path}" is not a file.`, 'parameters', 'Call view_skill without "file" to list its reference files.');
  const buffer = await readFile(real);
  if (buffer.subarray(0, 8_000).includes(0)) fail(`"${path}" is a binary file; only text files can be viewed.`);
  const text = buffer.toString('utf8');
  const truncated = text.length > MAX_FILE_CHARS;
  return { path: trimmed, content: truncated ? text.slice(0, MAX_FILE_CHARS) : text, truncated };
}
