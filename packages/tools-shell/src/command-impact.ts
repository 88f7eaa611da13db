/**
 * `assessCommandImpact`: turns the classifier's findings for a command line into one impact
 * assessment for the confirmation prompt (target, scope, impact), using descriptive rules where
 * they know the command and host rules that can only add confirmations.
 */
import type { ImpactAssessment } from '@aibuddy/registry';
import { classifyCommand } from './classify-command.js';
import type { ClassifyCommandOptions, CommandFinding } from './classify-command.js';
import { DEFAULT_COMMAND_IMPACT_RULES } from './command-impact-rules.js';
import { basename, effectiveArgv } from './effective-argv.js';
import type { ShellCommand } from './shell-syntax.js';

/** What an impact rule sees of one simple command. */
export interface CommandImpactContext {
  /** The program's base name (`rm`, `git`, …) after env assignments and wrappers (`sudo`, `env`, …) are peeled off. */
  program: string;
  /** Arguments after the program, unquoted. */
  args: readonly string[];
  /** True when the command runs under `sudo`/`doas`. */
  elevated: boolean;
  /** The simple command as parsed (words, redirects, pipeline position). */
  command: ShellCommand;
  /** Every simple command of the command line, for rules about pipelines (`curl … | sh`). */
  all: readonly ShellCommand[];
  /** The whole command line as the model wrote it. */
  commandLine: string;
}

/**
 * A descriptive or host rule: returns an assessment when the simple command is high impact,
 * `undefined` otherwise. A throwing rule counts as a finding.
 */
export type CommandImpactRule = (context: CommandImpactContext) => ImpactAssessment | undefined;

/** Options of {@link assessCommandImpact}. */
export interface AssessCommandImpactOptions extends ClassifyCommandOptions {
  /**
   * Host rules that flag commands as high impact even when they are proven harmless or allowed
   * (for example `terraform apply` inside an allowed `make deploy`). They can only add
   * confirmations, never remove one.
   */
  rules?: readonly CommandImpactRule[];
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function shorten(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const SCOPES: Record<CommandFinding['kind'], string> = {
  unanalyzable: 'unknown: the command could not be analyzed',
  elevated: 'the whole machine (elevated rights)',
  'inline-code': 'unknown: whatever the inline code does (workspace, network, the machine)',
  dynamic: 'unknown: decided only when the command runs',
  'unknown-program': 'unknown: whatever the program does (workspace, network, the machine)',
  write: 'files outside the ordinary workspace paths',
  option: 'files or programs reached through the options given',
  environment: 'what later programs run or read',
};

/** Describes one finding for a person: a descriptive rule when one knows the command, else the reason. */
function describe(
  finding: CommandFinding,
  all: readonly ShellCommand[],
  commandLine: string,
  rules: readonly CommandImpactRule[],
): ImpactAssessment {
  if (finding.kind === 'unanalyzable') {
    return {
      target: shorten(commandLine),
      scope: SCOPES.unanalyzable,
      impact: `Cannot be analyzed: ${finding.reason.replace(/^cannot be analyzed: /, '')}. Read the command before approving it.`,
    };
  }
  if (finding.words && finding.simple) {
    const { argv, elevated } = effectiveArgv(finding.words);
    const context: CommandImpactContext = {
      program: basename(argv[0] ?? ''),
      args: argv.slice(1),
      elevated,
      command: finding.simple,
      all,
      commandLine,
    };
    for (const rule of rules) {
      const found = safeRule(rule, context);
      if (found) return { ...found, impact: `${found.impact} (${finding.reason}.)` };
    }
  }
  return { target: shorten(finding.command), scope: SCOPES[finding.kind], impact: `Not proven harmless: ${finding.reason}.` };
}

function safeRule(rule: CommandImpactRule, context: CommandImpactContext): ImpactAssessment | undefined {
  try {
    return rule(context);
  } catch (error) {
    return { target: context.commandLine, scope: 'unknown', impact: `an impact rule failed (${(error as Error).message})` };
  }
}

function merge(found: ImpactAssessment[]): ImpactAssessment | undefined {
  if (found.length === 0) return undefined;
  if (found.length === 1) return found[0];
  return {
    target: unique(found.map((f) => f.target)).join('; '),
    scope: unique(found.map((f) => f.scope)).join('; '),
    impact: unique(found.map((f) => f.impact)).join(' '),
  };
}

/**
 * Decides from a command line whether running it needs a person's confirmation. It fails closed:
 * the line runs without asking only when {@link classifyCommand} proves every part harmless or
 * covered by an allow rule, and no host rule flags it. Otherwise the assessment says what the
 * command will do (for commands the descriptive rules know: recursive deletes, git history loss,
 * publishing, disk writes, download-and-run) or plainly why it could not be proven harmless
 * ("cannot be analyzed: …", "python3 -c runs inline code …").
 *
 * @example
 * assessCommandImpact('git status') // undefined
 * assessCommandImpact('npm test', { allow: [parseAllowRule('npm test')] }) // undefined
 * assessCommandImpact('setsid rm -rf build')
 * // → { target: 'build', scope: 'workspace', impact: 'Recursively deletes build without prompting; … (rm is not one of the known read-only programs.)' }
 */
export function assessCommandImpact(commandLine: string, options: AssessCommandImpactOptions = {}): ImpactAssessment | undefined {
  const classification = classifyCommand(commandLine, options);
  const found: ImpactAssessment[] = [];
  // Host rules first (their words lead the message); they flag commands even when harmless or allowed.
  for (const { command, script } of classification.commands) {
    const { argv, elevated } = effectiveArgv(command.words);
    const context: CommandImpactContext = {
      program: basename(argv[0] ?? ''),
      args: argv.slice(1),
      elevated,
      command,
      all: script,
      commandLine,
    };
    for (const rule of options.rules ?? []) {
      const hit = safeRule(rule, context);
      if (hit) found.push(hit);
    }
  }
  const all = classification.commands.map((c) => c.command);
  for (const finding of classification.findings) found.push(describe(finding, all, commandLine, DEFAULT_COMMAND_IMPACT_RULES));
  return merge(found);
}
