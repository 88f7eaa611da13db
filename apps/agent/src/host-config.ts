import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { CommandPolicyError, DEVELOPMENT_ALLOW_RULES, parseAllowRule } from '@aibuddy/tools-shell';
import type { AllowRule } from '@aibuddy/tools-shell';
import { AgentStartupError } from './errors.js';

/** The host config file: only what the person running the host decides, never the workspace. */
const hostConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  /** Command prefixes that run without confirmation. */
  allow: z.array(z.string().trim().min(1, 'an allow rule is empty')).optional(),
  /** Whether the built-in development allow list applies (default true). */
  defaultAllow: z.boolean().optional(),
});

/** The command rules in force for a run, with where each comes from. */
export interface HostCommandRules {
  /** Allow rules, in order: defaults, config file, `--allow`, demo. */
  allow: AllowRule[];
  /** The config file read, if any. */
  configFile: string | undefined;
}

/** What decides the rules. */
export interface LoadHostCommandRulesOptions {
  /** `--allow` values. */
  allowFlags?: readonly string[] | undefined;
  /** `--config FILE`; without it `$XDG_CONFIG_HOME/aibuddy/config.json` (or `~/.config/…`) is read when it exists. */
  configPath?: string | undefined;
  /** The environment (for `XDG_CONFIG_HOME` and `HOME`). */
  env: Record<string, string | undefined>;
  /** The workspace: a config file inside it is refused, since the agent can write there. */
  workspace: string;
  /** Rules the built-in demo adds for its own scripted commands. */
  demoRules?: readonly string[];
}

/** The default place of the host config: `$XDG_CONFIG_HOME/aibuddy/config.json`, else `~/.config/aibuddy/config.json`. */
export function defaultHostConfigPath(env: Record<string, string | undefined>): string {
  const base =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.trim() !== '' ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), '.config');
  return join(base, 'aibuddy', 'config.json');
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
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..');
}

function rule(text: string, source: string): AllowRule {
  try {
    return parseAllowRule(text, source);
  } catch (error) {
    if (CommandPolicyError.isInstance(error)) {
      throw new AgentStartupError('authorization', error.message, {
        fix: `correct or remove the rule in ${source}.`,
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * Loads the allow rules for a run: the development defaults (unless the config says
 * `"defaultAllow": false`), the config file's `allow` list, every `--allow`, and the demo's own
 * rules. The config file lives outside the workspace; one inside it is refused, because the agent
 * could write itself a rule. Throws `AgentStartupError` (stage `authorization`) naming the fix.
 */
export function loadHostCommandRules(options: LoadHostCommandRulesOptions): HostCommandRules {
  const explicit = options.configPath !== undefined;
  const configFile = resolve(options.configPath ?? defaultHostConfigPath(options.env));
  let config: z.infer<typeof hostConfigSchema> = {};
  let read: string | undefined;
  if (explicit || existsSync(configFile)) {
    if (isInside(configFile, options.workspace)) {
      throw new AgentStartupError(
        'authorization',
        `the config file ${configFile} is inside the workspace ${options.workspace}, where the agent can write itself allow rules; it is not read.`,
        {
          fix: `move it outside the workspace (for example to ${defaultHostConfigPath({ ...options.env, HOME: homedir() })}) or pass --config with a file outside it, or choose a narrower --workspace.`,
        },
      );
    }
    let text: string;
    try {
      text = readFileSync(configFile, 'utf8');
    } catch (error) {
      throw new AgentStartupError(
        'authorization',
        `cannot read the config file ${configFile} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
        {
          fix: explicit ? 'check the path given to --config.' : 'fix the file permissions or remove the file.',
          cause: error,
        },
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new AgentStartupError(
        'authorization',
        `the config file ${configFile} is not valid JSON (${(error as Error).message}).`,
        {
          fix: 'write it as {"allow": ["npm test", "cargo build"]}.',
          cause: error,
        },
      );
    }
    const parsed = hostConfigSchema.safeParse(json);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`).join('; ');
      throw new AgentStartupError('authorization', `the config file ${configFile} is not a valid aibuddy config: ${problems}.`, {
        fix: 'the file takes {"allow": ["<command prefix>", ...], "defaultAllow": true|false}.',
      });
    }
    config = parsed.data;
    read = configFile;
  }
  const allow: AllowRule[] = [];
  if (config.defaultAllow !== false) for (const r of DEVELOPMENT_ALLOW_RULES) allow.push(rule(r, 'default'));
  for (const r of config.allow ?? []) allow.push(rule(r, read!));
  for (const r of options.allowFlags ?? []) allow.push(rule(r, '--allow'));
  for (const r of options.demoRules ?? []) allow.push(rule(r, 'demo'));
  return { allow, configFile: read };
}
