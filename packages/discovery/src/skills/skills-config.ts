import { defineTool, ToolError } from '@aibuddy/registry';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerToolConfig, ToolConfigContext } from '@aibuddy/registry';
import { z } from 'zod';
import { cutForModel } from '../cut-for-model.js';
import { loadSkills, MAX_SKILL_DESCRIPTION } from './load-skills.js';
import type { LoadedSkills, Skill } from './load-skills.js';
import { listSkillFiles, MAX_FILE_CHARS, readSkillFile } from './skill-files.js';

/** The config key of skills (as in `TOOL_CONFIG_METAS`). */
export const SKILLS_CONFIG_KEY = 'skills';
/** The tool name of `view_skill` (as in `TOOL_NAME_MAP`). */
export const VIEW_SKILL_TOOL_NAME = 'view_skill';

/** Options of `createSkillsConfig`. */
export interface SkillsConfigOptions {
  /** The skills folder (`<name>/SKILL.md` inside). Read at the start of each run. */
  dir: string;
  /** Receives folders that were skipped, with their reason (a host logs them). */
  onProblems?: (problems: LoadedSkills['problems']) => void;
}

/** What `view_skill` returns. */
export type ViewSkillResult =
  | { skill: string; description: string; procedure: string; files: string[] }
  | { skill: string; file: string; content: string; truncated: boolean };

function hasAnySkill(dir: string): boolean {
  try {
    return readdirSync(dir).some((entry) => !entry.startsWith('.') && existsSync(join(dir, entry, 'SKILL.md')));
  } catch {
    return false;
  }
}

function short(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return cutForModel(flat, MAX_SKILL_DESCRIPTION);
}

/** The listing the model sees: one line per skill, name and purpose only. */
export function skillListing(skills: readonly Pick<Skill, 'name' | 'description'>[]): string {
  return skills.map((s) => `- ${s.name}: ${short(s.description)}`).join('\n');
}

/**
 * Skills as a config (key `skills`, tool `view_skill`). The model sees only each skill's name and
 * purpose (in the run instructions and the tool description); `view_skill` returns the full
 * procedure and the list of reference files, and reads one reference file at a time, confined to
 * that skill's folder. With no valid skill in the folder, the config yields nothing, with a reason.
 */
export function createSkillsConfig(options: SkillsConfigOptions): ServerToolConfig {
  // `create` loads the skills; `instructions` is called with the same context object in the same
  // run, so the listing is kept per context (runs of one host may overlap).
  const loadedByRun = new WeakMap<ToolConfigContext, LoadedSkills>();
  return {
    key: SKILLS_CONFIG_KEY,
    toolNames: [VIEW_SKILL_TOOL_NAME],
    core: true,
    requires: {
      preconditions: [
        {
          name: 'skills-folder',
          check: () => (hasAnySkill(options.dir) ? true : `no skills in ${options.dir} (no <name>/SKILL.md)`),
        },
      ],
    },
    async create(context) {
      const loaded = await loadSkills(options.dir);
      loadedByRun.set(context, loaded);
      if (loaded.problems.length > 0) options.onProblems?.(loaded.problems);
      const skills = loaded.skills;
      if (skills.length === 0) return [];
      const byName = new Map(skills.map((s) => [s.name, s]));
      const names = skills.map((s) => s.name);
      return [
        defineTool({
          name: VIEW_SKILL_TOOL_NAME,
          description:
            'Read a skill: its full procedure and the list of its reference files; with "file", one reference file. ' +
            `Read a skill before following it. Skills:\n${skillListing(skills)}`,
          inputSchema: z.object({
            name: z.string().describe(`The skill's name: one of ${names.map((n) => `"${n}"`).join(', ')}.`),
            file: z
              .string()
              .optional()
              .describe(
                'A reference file of that skill, as listed (relative path). Omit to get the procedure and the file list.',
              ),
          }),
          execute: async ({ name, file }): Promise<ViewSkillResult> => {
            const skill = byName.get(name);
            if (!skill) {
              throw new ToolError(`there is no skill "${name}".`, {
                stage: 'parameters',
                toolName: VIEW_SKILL_TOOL_NAME,
                hint: `Use one of: ${names.join(', ')}.`,
              });
            }
            if (file === undefined) {
              return {
                skill: skill.name,
                description: skill.description,
                procedure: skill.body.trim(),
                files: await listSkillFiles(skill),
              };
            }
            const content = await readSkillFile(skill, file, VIEW_SKILL_TOOL_NAME);
            return { skill: skill.name, file: content.path, content: content.content, truncated: content.truncated };
          },
          toModelOutput: ({ output }) => {
            if ('procedure' in output) {
              const files = output.files.length > 0 ? output.files.map((f) => `- ${f}`).join('\n') : '(none)';
              return `# Skill: ${output.skill}\n\n${output.procedure}\n\n## Reference files (read with view_skill {"name": "${output.skill}", "file": "<path>"})\n${files}`;
            }
            return `# ${output.skill}/${output.file}\n\n${output.content}${output.truncated ? `\n\n[cut at ${MAX_FILE_CHARS} characters]` : ''}`;
          },
        }),
      ];
    },
    instructions(context) {
      const loaded = loadedByRun.get(context);
      if (!loaded || loaded.skills.length === 0) return undefined;
      return `Skills (procedures for specific tasks). When a task matches one, read it with view_skill before acting:\n${skillListing(loaded.skills)}`;
    },
  };
}
