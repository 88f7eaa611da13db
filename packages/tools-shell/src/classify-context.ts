/**
 * What the parts of the command classifier share: the walk's mutable context, the verdict shape,
 * the environment-variable lists and how a simple command is shown in a finding.
 */
import type { ClassifyCommandOptions, CommandClassification, CommandFinding } from './classify-command.js';
import type { VariableValue } from './classify-arithmetic.js';
import type { ShellCommand, ShellWord } from './shell-syntax.js';

/** Environment variables a command prefix may set without changing what programs run. */
export const SAFE_ENV =
  /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|TERM|COLUMNS|LINES|CI|TIME_STYLE|GREP_COLOR|GREP_COLORS|LS_COLORS)$/;
/** Shell variables that change what later commands run or read, even when only set in this shell. */
export const DANGEROUS_SHELL_VARS =
  /^(PATH|IFS|ENV|BASH_ENV|CDPATH|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|GLOBIGNORE|HOME|LD_.*|DYLD_.*|GIT_.*|.*PAGER|EDITOR|VISUAL|NODE_OPTIONS|NODE_PATH|PYTHON.*|PERL5.*|PERLLIB|RUBY.*|RIPGREP_CONFIG_PATH|GREP_OPTIONS|LESS.*|BASH_.*|TMOUT|HISTFILE|MAIL.*|BROWSER|npm_config_.*|NPM_CONFIG_.*)$/;

/** The state of one classification, shared by every nested analysis. */
export interface Context extends ClassifyCommandOptions {
  findings: CommandFinding[];
  allowedBy: Set<string>;
  commands: CommandClassification['commands'];
  problems: string[];
  /** Set once a `cd` leaves the ordinary workspace paths: relative write targets then point elsewhere. */
  cwdEscaped: boolean;
  /** What each variable assigned in the command line can hold (see `classify-arithmetic.ts`). */
  variables: Map<string, VariableValue>;
}

/** The answer for one program and its arguments. */
export type ArgvVerdict = { ok: true; allowedBy?: string } | { ok: false; reason: string; kind: CommandFinding['kind'] };

/** Analyzes a nested argv (a wrapped command) one level deeper. */
export type NestedArgv = (inner: readonly ShellWord[], dynamic: boolean) => ArgvVerdict;
/** Analyzes a nested script (`flock -c`, `watch`) one level deeper; `label` names what runs it. */
export type NestedScript = (script: string, label: string) => ArgvVerdict;

// Literal words that need quoting are shown quoted; run-time words are shown as written.
const textOf = (words: readonly ShellWord[]) =>
  words
    .map((w) =>
      w.kind === 'literal' && (/[\s'"$`\\|&;<>()*?[\]~#!]/.test(w.text) || w.text === '')
        ? `'${w.text.replace(/'/g, `'\\''`)}'`
        : w.text,
    )
    .join(' ');

export function commandText(command: ShellCommand): string {
  const parts = [...command.assignments.map((w) => w.text), textOf(command.argv)];
  for (const r of command.redirections) parts.push(`${r.fd ?? ''}${r.op} ${r.target.text}`);
  return parts.filter((p) => p !== '').join(' ');
}

/** A negative verdict. */
export function fail(reason: string, kind: CommandFinding['kind']): ArgvVerdict {
  return { ok: false, reason, kind };
}
