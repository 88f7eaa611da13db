import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { CommandPolicyError, loadAllowRules } from '@aibuddy/tools-shell';
import type { AllowRule } from '@aibuddy/tools-shell';
import { AgentStartupError } from './errors.js';

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

function defaultHostConfigPath(env: Record<string, string | undefined>): string {
  const base =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.trim() !== '' ? env.XDG_CONFIG_HOME : join(env.HOME ?? homedir(), '.config');
  return join(base, 'aibuddy', 'config.json');
}

/**
 * The allow rules of a run (tools-shell's `loadAllowRules` over the host config file, `--allow` and
 * the demo's rules). Throws `AgentStartupError` (stage `authorization`) naming the fix.
 */
export function loadHostCommandRules(options: LoadHostCommandRulesOptions): HostCommandRules {
  try {
    const { allow, file } = loadAllowRules({
      file: options.configPath === undefined ? defaultHostConfigPath(options.env) : resolve(options.configPath),
      required: options.configPath !== undefined,
      workspace: options.workspace,
      extra: [
        { rules: options.allowFlags ?? [], source: '--allow' },
        { rules: options.demoRules ?? [], source: 'demo' },
      ],
    });
    return { allow, configFile: file };
  } catch (error) {
    if (CommandPolicyError.isInstance(error)) throw new AgentStartupError('authorization', error.message, { cause: error });
    throw error;
  }
}
