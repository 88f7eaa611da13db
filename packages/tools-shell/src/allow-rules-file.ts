import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import type { AllowRule } from './classify-command.js';
import { CommandPolicyError, DEVELOPMENT_ALLOW_RULES, parseAllowRule } from './command-policy.js';

/** The allow-rules file: only what the person running the host decides, never the workspace. */
export const allowRulesFileSchema = z.strictObject({
  $schema: z.string().optional(),
  /** Command prefixes that run without confirmation. */
  allow: z.array(z.string().trim().min(1, 'an allow rule is empty')).optional(),
  /** Whether the built-in development allow list applies (default true). */
  defaultAllow: z.boolean().optional(),
});

/** Rules from one place (command-line flags, a demo), with the name shown next to each. */
export interface AllowRuleSource {
  /** The rules, as written. */
  rules: readonly string[];
  /** Where they come from (`--allow`, `demo`). */
  source: string;
}

/** Options of {@link loadAllowRules}. */
export interface LoadAllowRulesOptions {
  /** The rules file (`{"allow": [...], "defaultAllow": true|false}`); read when it exists. */
  file?: string | undefined;
  /** The file was named explicitly: a missing one is an error instead of "no file". */
  required?: boolean;
  /** The workspace: a file inside it is refused, since the agent can write there. */
  workspace: string;
  /** More rules, after the defaults and the file's, in order. */
  extra?: readonly AllowRuleSource[];
}

/** The allow rules in force, with where each comes from. */
export interface LoadedAllowRules {
  /** In order: the development defaults (`source: 'default'`), the file's, then `extra`. */
  allow: AllowRule[];
  /** The file that was read, if any. */
  file: string | undefined;
}

function real(path: string): string {
  // The deepest existing ancestor decides (the file itself may be reached through a link).
  let current = resolve(path);
  const rest: string[] = [];
  while (!existsSync(current) && dirname(current) !== current) {
    rest.unshift(current.slice(dirname(current).length + 1));
    current = dirname(current);
  }
  try {
    return join(realpathSync(current), ...rest);
  } catch {
    return resolve(path);
  }
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(real(folder), real(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function readRulesFile(file: string, required: boolean): z.infer<typeof allowRulesFileSchema> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CommandPolicyError(
      `the config file ${file} cannot be read (${code}). Fix: ${required ? 'check the path given for it' : 'fix the file permissions or remove the file'}.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CommandPolicyError(
      `the config file ${file} is not valid JSON (${(error as Error).message}). Fix: write it as {"allow": ["npm test", "cargo build"]}.`,
    );
  }
  const parsed = allowRulesFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`).join('; ');
    throw new CommandPolicyError(
      `the config file ${file} is not a valid aibuddy config: ${problems}. Fix: the file takes {"allow": ["<command prefix>", ...], "defaultAllow": true|false}.`,
    );
  }
  return parsed.data;
}

/**
 * Loads the allow rules of `execute` for a run: the development defaults (unless the file says
 * `"defaultAllow": false`), the file's `allow` list, then each `extra` source. A file inside the
 * workspace is refused, because the agent could write itself a rule. Throws `CommandPolicyError`
 * (stage `authorization`) naming the file or rule and the fix.
 */
export function loadAllowRules(options: LoadAllowRulesOptions): LoadedAllowRules {
  const file = options.file === undefined ? undefined : resolve(options.file);
  let config: z.infer<typeof allowRulesFileSchema> = {};
  let read: string | undefined;
  if (file !== undefined && (options.required === true || existsSync(file))) {
    if (isInside(file, options.workspace)) {
      throw new CommandPolicyError(
        `the config file ${file} is inside the workspace ${options.workspace}, where the agent can write itself allow rules; it is not read. ` +
          'Fix: move it outside the workspace, or choose a narrower workspace.',
      );
    }
    config = readRulesFile(file, options.required === true);
    read = file;
  }
  const sources: AllowRuleSource[] = [
    ...(config.defaultAllow === false ? [] : [{ rules: DEVELOPMENT_ALLOW_RULES, source: 'default' }]),
    ...(read ? [{ rules: config.allow ?? [], source: read }] : []),
    ...(options.extra ?? []),
  ];
  return { allow: sources.flatMap(({ rules, source }) => rules.map((rule) => parseAllowRule(rule, source))), file: read };
}
