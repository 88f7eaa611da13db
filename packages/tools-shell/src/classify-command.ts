/**
 * The command classifier: proves a command line harmless or says, per simple command, why a
 * person must confirm it. This file walks the script and decides per program; wrappers, shells
 * and interpreters, and the checks of assignments and redirections live in the `classify-*` files.
 */
import { commandText, fail } from './classify-context.js';
import type { ArgvVerdict, Context } from './classify-context.js';
import { analyzeInterpreter, ELEVATING, SHELL_WORDS_RUNNING_STRINGS } from './classify-interpreters.js';
import { checkAssignments, checkRedirections } from './classify-side-effects.js';
import { analyzeWrapper } from './classify-wrappers.js';
import { basename } from './effective-argv.js';
import { HARMLESS_PROGRAMS, isVersionQuery } from './harmless-programs.js';
import type { Verdict } from './program-checks.js';
import { parseShellScript } from './parse-shell.js';
import type { ShellCommand, ShellWord } from './shell-syntax.js';
import { normalizeWorkspacePath, protectedReason, writeTargetProblem } from './workspace-path.js';
import { checkEvaluatedVariables, recordVariables } from './classify-arithmetic.js';
import type { WriteTargetOptions } from './workspace-path.js';

/** A host allow rule: a command prefix that runs without confirmation. */
export interface AllowRule {
  /** The rule as written (`npm test`). */
  rule: string;
  /** Its words; a simple command matches when its program and first arguments are exactly these. */
  words: readonly string[];
  /** Where the rule comes from (`default`, `--allow`, a config file), for display. */
  source?: string;
}

/** Options of {@link classifyCommand}. */
export interface ClassifyCommandOptions extends WriteTargetOptions {
  /** Host allow rules (see `parseAllowRule`). */
  allow?: readonly AllowRule[];
}

/** Why one part of a command line needs a person's confirmation. */
export interface CommandFinding {
  /** The simple command (or the whole line, for `unanalyzable`) as text. */
  command: string;
  /** Why it is not proven harmless, in words a person can judge. */
  reason: string;
  /** The class of the finding. */
  kind: 'unanalyzable' | 'elevated' | 'inline-code' | 'dynamic' | 'unknown-program' | 'write' | 'option' | 'environment';
  /** The simple command's words (for descriptive impact rules), when there is one. */
  words?: readonly string[];
  /** The simple command as parsed, when there is one. */
  simple?: ShellCommand;
}

/** The classifier's answer for one command line. */
export interface CommandClassification {
  /** True when the line runs without confirmation: every part is proven harmless or covered by an allow rule. */
  harmless: boolean;
  /** False when the line could not be read completely (then it always needs confirmation). */
  analyzable: boolean;
  /** What needs confirmation (empty when `harmless`). */
  findings: CommandFinding[];
  /** The allow rules that covered parts of the line. */
  allowedBy: string[];
  /** Every simple command read, with its verdict (for display and host rules). */
  commands: Array<{ command: ShellCommand; script: readonly ShellCommand[] }>;
}

/** Substitutions and inline scripts are followed this deep; deeper is "cannot be analyzed". */
const MAX_DEPTH = 6;
/** Wrappers (`env nice timeout … cmd`) are peeled this deep; no real command needs more. */
const MAX_WRAPPER_DEPTH = 32;

/** Folders whose programs are the system's own (a program named by a path elsewhere is a file in the workspace or worse). */
const SYSTEM_DIRS = new Set(['/bin', '/usr/bin', '/usr/local/bin', '/sbin', '/usr/sbin']);

function matchAllow(program: string, argv: readonly ShellWord[], rules: readonly AllowRule[] | undefined): AllowRule | undefined {
  if (!rules) return undefined;
  return rules.find((rule) => {
    if (rule.words.length === 0 || rule.words.length > argv.length) return false;
    if (rule.words[0] !== program) return false;
    for (let i = 1; i < rule.words.length; i++) {
      const word = argv[i]!;
      if (word.kind !== 'literal' || word.text !== rule.words[i]) return false;
    }
    return true;
  });
}

/** The verdict for one program and its arguments (`extraDynamic`: more arguments are added when it runs, as by xargs). */
function analyzeArgv(
  argv: readonly ShellWord[],
  extraDynamic: boolean,
  command: ShellCommand,
  ctx: Context,
  depth: number,
): ArgvVerdict {
  if (argv.length === 0) return { ok: true };
  if (depth > MAX_WRAPPER_DEPTH)
    return fail(`cannot be analyzed: wrappers nested more than ${MAX_WRAPPER_DEPTH} deep`, 'unanalyzable');
  const first = argv[0]!;
  if (first.kind !== 'literal') return fail(`the program name ${first.text} is only known when the command runs`, 'dynamic');
  let program = first.text;
  if (program.includes('/')) {
    const dir = program.slice(0, program.lastIndexOf('/')) || '/';
    if (!SYSTEM_DIRS.has(dir)) return fail(`runs ${program}, a program file whose code is not checked`, 'unknown-program');
    program = basename(program);
  }
  const args = argv.slice(1);

  const rule = matchAllow(program, argv, ctx.allow);
  if (rule && !ELEVATING.has(program)) return { ok: true, allowedBy: rule.rule };

  if (ELEVATING.has(program))
    return fail(
      `${program} runs a command with elevated rights (as root or another user); that always needs confirmation`,
      'elevated',
    );
  const stringRunner = SHELL_WORDS_RUNNING_STRINGS[program];
  if (stringRunner)
    return fail(stringRunner, program === 'eval' || program === 'source' || program === '.' ? 'inline-code' : 'unknown-program');

  const nested = (inner: readonly ShellWord[], dyn: boolean): ArgvVerdict => analyzeArgv(inner, dyn, command, ctx, depth + 1);
  const nestedScript = (script: string, label: string): ArgvVerdict => {
    const before = ctx.findings.length;
    analyzeScript(script, ctx, depth + 1);
    if (ctx.findings.length > before) {
      const inner = ctx.findings.splice(before);
      return fail(`${label} runs ${JSON.stringify(script)}: ${inner.map((f) => f.reason).join('; ')}`, inner[0]!.kind);
    }
    return { ok: true };
  };

  const wrapped = analyzeWrapper(program, args, extraDynamic, ctx, nested, nestedScript);
  if (wrapped) return wrapped;
  const interpreted = analyzeInterpreter(program, args, command, ctx, (script) => analyzeScript(script, ctx, depth + 1));
  if (interpreted) return interpreted;

  if (isVersionQuery(program, args)) return { ok: true };

  const checker = HARMLESS_PROGRAMS[program];
  if (!checker) {
    return fail(
      `${program} is not one of the known read-only programs${ctx.allow?.length ? ' and no allow rule covers it' : ''}`,
      'unknown-program',
    );
  }
  const verdict: Verdict = checker({
    program,
    args,
    extraDynamic,
    cwdEscaped: ctx.cwdEscaped,
    nested: (inner, dyn) => {
      const v = nested(inner, dyn);
      return v.ok ? { ok: true } : { ok: false, reason: v.reason };
    },
    writeTarget: (word) =>
      ctx.cwdEscaped && !/^\/dev\//.test(word.text)
        ? `writes to ${word.text} after a cd that left the ordinary workspace paths`
        : writeTargetProblem(word, ctx),
  });
  return verdict.ok ? { ok: true } : fail(verdict.reason, /writes|write/.test(verdict.reason) ? 'write' : 'option');
}

function analyzeScript(text: string, ctx: Context, depth: number): void {
  if (depth > MAX_DEPTH) {
    ctx.findings.push({ command: text, reason: 'cannot be analyzed: substitutions nested too deeply', kind: 'unanalyzable' });
    return;
  }
  const script = parseShellScript(text);
  if (script.problems.length > 0) {
    // What was read after the first problem is unreliable: one plain finding for the whole line.
    ctx.problems.push(...script.problems);
    ctx.findings.push({ command: text, reason: `cannot be analyzed: it contains ${script.problems[0]}`, kind: 'unanalyzable' });
    return;
  }
  recordVariables(script.commands, ctx);
  for (const command of script.commands) {
    ctx.commands.push({ command, script: script.commands });
    checkAssignments(command, ctx);
    checkEvaluatedVariables(command, ctx);
    for (const sub of command.substitutions) analyzeScript(sub, ctx, depth + 1);
    if (command.keyword === 'for') continue;
    const verdict = analyzeArgv(command.argv, false, command, ctx, depth);
    if (verdict.ok && verdict.allowedBy) ctx.allowedBy.add(verdict.allowedBy);
    if (!verdict.ok)
      ctx.findings.push({
        command: commandText(command),
        reason: verdict.reason,
        kind: verdict.kind,
        words: command.words,
        simple: command,
      });
    // Redirections after the program ran its `cd`: `cd x && … > f` is checked with the cd applied.
    checkRedirections(command, ctx);
  }
}

/**
 * Decides whether a command line is PROVEN harmless: it parses completely and every program it
 * runs (through pipes, `&&`, `||`, `;`, subshells, substitutions, here-docs and wrappers such as
 * `env`, `nice`, `timeout`, `setsid`, `nohup`, `xargs`, `find -exec`, `flock`, `watch`) is a
 * known read-only program with harmless options, or is covered by an allow rule; and every
 * redirection writes only to ordinary workspace paths. Anything else is a finding that needs a
 * person's confirmation. A pure function: no file system, no environment.
 *
 * @example
 * classifyCommand('git status && rg TODO src | head').harmless // true
 * classifyCommand('rm --rec build').findings[0].reason // "rm is not one of the known read-only programs"
 */
export function classifyCommand(commandLine: string, options: ClassifyCommandOptions = {}): CommandClassification {
  const ctx: Context = {
    ...options,
    findings: [],
    allowedBy: new Set(),
    commands: [],
    problems: [],
    cwdEscaped: false,
    variables: new Map(),
  };
  if (options.cwd !== undefined) {
    // A working folder outside the ordinary paths (`.git`, `..`) makes every relative write land there.
    const normal = normalizeWorkspacePath(options.cwd, options.workspaceRoot);
    if (normal === undefined || protectedReason(normal, options.protectedPaths)) ctx.cwdEscaped = true;
  }
  try {
    analyzeScript(commandLine, ctx, 0);
  } catch (error) {
    // A bug in the classifier must not let a command through.
    ctx.findings.push({ command: commandLine, reason: `cannot be analyzed: ${(error as Error).message}`, kind: 'unanalyzable' });
  }
  if (commandLine.trim() === '' && ctx.findings.length === 0) {
    return { harmless: true, analyzable: true, findings: [], allowedBy: [], commands: [] };
  }
  return {
    harmless: ctx.findings.length === 0,
    analyzable: ctx.problems.length === 0 && !ctx.findings.some((f) => f.kind === 'unanalyzable'),
    findings: ctx.findings,
    allowedBy: [...ctx.allowedBy],
    commands: ctx.commands,
  };
}
