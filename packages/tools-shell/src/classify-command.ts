import { HARMLESS_PROGRAMS, isVersionQuery } from './harmless-programs.js';
import type { Verdict } from './harmless-programs.js';
import { basename, parseShellScript } from './parse-shell.js';
import type { ShellCommand, ShellWord } from './parse-shell.js';
import { normalizeWorkspacePath, protectedReason, writeTargetProblem } from './workspace-path.js';
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

/** Environment variables a command prefix may set without changing what programs run. */
const SAFE_ENV =
  /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|TERM|COLUMNS|LINES|CI|TIME_STYLE|GREP_COLOR|GREP_COLORS|LS_COLORS)$/;
/** Shell variables that change what later commands run or read, even when only set in this shell. */
const DANGEROUS_SHELL_VARS =
  /^(PATH|IFS|ENV|BASH_ENV|CDPATH|PS4|PROMPT_COMMAND|SHELLOPTS|BASHOPTS|GLOBIGNORE|HOME|LD_.*|DYLD_.*|GIT_.*|.*PAGER|EDITOR|VISUAL|NODE_OPTIONS|NODE_PATH|PYTHON.*|PERL5.*|PERLLIB|RUBY.*|RIPGREP_CONFIG_PATH|GREP_OPTIONS|LESS.*|BASH_.*|TMOUT|HISTFILE|MAIL.*|BROWSER|npm_config_.*|NPM_CONFIG_.*)$/;

const ELEVATING = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0', 'sg', 'newgrp', 'chroot']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'fish', 'tcsh', 'csh', 'yash', 'rbash']);
const INLINE_FLAGS: Record<string, readonly string[]> = {
  node: ['-e', '--eval', '-p', '--print'],
  nodejs: ['-e', '--eval', '-p', '--print'],
  deno: ['eval'],
  bun: ['-e', '--eval', '-p', '--print'],
  perl: ['-e', '-E'],
  ruby: ['-e'],
  php: ['-r'],
  lua: ['-e'],
  pwsh: ['-c', '-Command', '-EncodedCommand', '-e'],
  powershell: ['-c', '-Command', '-EncodedCommand', '-e'],
  osascript: ['-e'],
  Rscript: ['-e'],
  tclsh: [],
  python: ['-c'],
};
const SHELL_WORDS_RUNNING_STRINGS: Record<string, string> = {
  eval: 'eval runs a string as shell code',
  source: 'source runs a file as shell code in this shell',
  '.': '. (source) runs a file as shell code in this shell',
  alias: 'alias changes what later command names mean',
  trap: 'trap runs code when a signal or exit happens',
  enable: 'enable switches shell builtins on or off',
  hash: 'hash changes where command names are looked up',
  declare: 'declare can define functions and evaluate array subscripts',
  typeset: 'typeset can define functions and evaluate array subscripts',
  local: 'local can evaluate array subscripts',
  readonly: 'readonly can evaluate array subscripts',
  read: 'read assigns variables from input (array subscripts can run commands)',
  mapfile: 'mapfile assigns variables from input',
  readarray: 'readarray assigns variables from input',
  let: 'let evaluates arithmetic, which can run commands through array subscripts',
  shopt: 'shopt changes how the shell reads later commands',
  ulimit: 'ulimit changes resource limits',
  umask: 'umask changes the permissions of files created later',
  kill: 'kill sends signals to processes',
  pkill: 'pkill sends signals to processes',
  killall: 'killall sends signals to processes',
  parallel: 'parallel builds commands when it runs and runs them through a shell',
};

function isInterpreter(program: string): boolean {
  return program in INLINE_FLAGS || /^python[\d.]*$/.test(program) || /^pypy\d*$/.test(program);
}

interface Context extends ClassifyCommandOptions {
  findings: CommandFinding[];
  allowedBy: Set<string>;
  commands: CommandClassification['commands'];
  problems: string[];
  /** Set once a `cd` leaves the ordinary workspace paths: relative write targets then point elsewhere. */
  cwdEscaped: boolean;
}

type ArgvVerdict = { ok: true; allowedBy?: string } | { ok: false; reason: string; kind: CommandFinding['kind'] };

const literal = (text: string): ShellWord => ({ text, kind: 'literal', quoted: false });
// Literal words that need quoting are shown quoted; run-time words are shown as written.
const textOf = (words: readonly ShellWord[]) =>
  words
    .map((w) =>
      w.kind === 'literal' && (/[\s'"$`\\|&;<>()*?[\]~#!]/.test(w.text) || w.text === '')
        ? `'${w.text.replace(/'/g, `'\\''`)}'`
        : w.text,
    )
    .join(' ');

function commandText(command: ShellCommand): string {
  const parts = [...command.assignments.map((w) => w.text), textOf(command.argv)];
  for (const r of command.redirections) parts.push(`${r.fd ?? ''}${r.op} ${r.target.text}`);
  return parts.filter((p) => p !== '').join(' ');
}

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

function fail(reason: string, kind: CommandFinding['kind']): ArgvVerdict {
  return { ok: false, reason, kind };
}

/** Options of wrappers: which ones take a value. Unknown options are not proven harmless. */
function peelOptions(
  args: readonly ShellWord[],
  name: string,
  flags: RegExp,
  withValue: RegExp,
): { rest: ShellWord[] } | { reason: string } {
  let i = 0;
  while (i < args.length) {
    const word = args[i]!;
    if (word.kind === 'dynamic') return { reason: `the ${name} argument ${word.text} is only known when it runs` };
    const text = word.text;
    if (text === '--') return { rest: args.slice(i + 1) };
    if (!text.startsWith('-') || text === '-') break;
    if (withValue.test(text)) {
      i += text.includes('=') || /^-[a-zA-Z]\S/.test(text) ? 1 : 2;
      continue;
    }
    if (flags.test(text)) {
      i += 1;
      continue;
    }
    return { reason: `${name} ${text} is not a known ${name} option` };
  }
  return { rest: args.slice(i) };
}

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

  switch (program) {
    case 'env': {
      const peeled = peelOptions(
        args,
        'env',
        /^(-i|--ignore-environment|-0|--null|-)$/,
        /^(-u|--unset|-C|--chdir)(=.*)?$|^-[uC]\S+$/,
      );
      if ('reason' in peeled) return fail(peeled.reason, 'option');
      if (args.some((w) => /^(-S|--split-string)/.test(w.text)))
        return fail('env -S splits a string into a command that is not checked', 'inline-code');
      let rest = peeled.rest;
      while (rest[0] && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0].text)) {
        const name = rest[0].text.slice(0, rest[0].text.indexOf('='));
        if (!SAFE_ENV.test(name)) return fail(`env sets ${name}, which can change what the program runs or reads`, 'environment');
        rest = rest.slice(1);
      }
      return rest.length === 0
        ? extraDynamic
          ? fail('env gets a program only known when it runs', 'dynamic')
          : { ok: true }
        : nested(rest, extraDynamic);
    }
    case 'nice': {
      const peeled = peelOptions(args, 'nice', /^-\d+$/, /^(-n|--adjustment)(=.*)?$|^-n\S+$/);
      if ('reason' in peeled) return fail(peeled.reason, 'option');
      return peeled.rest.length === 0 ? { ok: true } : nested(peeled.rest, extraDynamic);
    }
    case 'ionice': {
      const peeled = peelOptions(args, 'ionice', /^(-t|--ignore)$/, /^(-c|-n|--class|--classdata)(=.*)?$|^-[cn]\S+$/);
      if ('reason' in peeled) return fail(`${peeled.reason} (ionice -p changes other processes)`, 'option');
      return peeled.rest.length === 0 ? { ok: true } : nested(peeled.rest, extraDynamic);
    }
    case 'timeout': {
      const peeled = peelOptions(
        args,
        'timeout',
        /^(--preserve-status|--foreground|-v|--verbose)$/,
        /^(-s|--signal|-k|--kill-after)(=.*)?$|^-[sk]\S+$/,
      );
      if ('reason' in peeled) return fail(peeled.reason, 'option');
      return peeled.rest.length <= 1 ? { ok: true } : nested(peeled.rest.slice(1), extraDynamic);
    }
    case 'setsid':
    case 'nohup':
    case 'builtin': {
      const peeled = peelOptions(args, program, program === 'setsid' ? /^(-f|--fork|-w|--wait|-c|--ctty)$/ : /^$/, /^$/);
      if ('reason' in peeled) return fail(peeled.reason, 'option');
      return peeled.rest.length === 0 ? { ok: true } : nested(peeled.rest, extraDynamic);
    }
    case 'stdbuf': {
      const peeled = peelOptions(args, 'stdbuf', /^$/, /^(-i|-o|-e|--input|--output|--error)(=.*)?$|^-[ioe]\S+$/);
      if ('reason' in peeled) return fail(peeled.reason, 'option');
      return peeled.rest.length === 0 ? { ok: true } : nested(peeled.rest, extraDynamic);
    }
    case 'time': {
      const peeled = peelOptions(args, 'time', /^(-p|--portability|-v|--verbose|-q|--quiet)$/, /^(-f|--format)(=.*)?$/);
      if ('reason' in peeled) return fail(`${peeled.reason} (time -o writes a file)`, 'option');
      return peeled.rest.length === 0 ? { ok: true } : nested(peeled.rest, extraDynamic);
    }
    case 'command': {
      if (args[0] && (args[0].text === '-v' || args[0].text === '-V')) return { ok: true };
      const peeled = peelOptions(args, 'command', /^-p$/, /^$/);
      if ('reason' in peeled) return fail(peeled.reason, 'option');
      return peeled.rest.length === 0 ? { ok: true } : nested(peeled.rest, extraDynamic);
    }
    case 'exec': {
      const peeled = peelOptions(args, 'exec', /^(-c|-l|-cl|-lc)$/, /^-a$/);
      if ('reason' in peeled) return fail(peeled.reason, 'option');
      return peeled.rest.length === 0 ? { ok: true } : nested(peeled.rest, extraDynamic);
    }
    case 'busybox': {
      if (args.length === 0 || (args.length === 1 && /^--list/.test(args[0]!.text))) return { ok: true };
      return nested(args, extraDynamic);
    }
    case 'xargs': {
      const peeled = peelOptions(
        args,
        'xargs',
        /^(-0|--null|-r|--no-run-if-empty|-t|--verbose|-x|--exit|-p|--interactive|-o|--open-tty|-i|--replace|-e)$/,
        /^(-n|--max-args|-L|--max-lines|-P|--max-procs|-s|--max-chars|-d|--delimiter|-E|-I|-a|--arg-file|--process-slot-var)(=.*)?$|^-[nLPsdEIa]\S+$/,
      );
      if ('reason' in peeled) return fail(peeled.reason, 'option');
      if (peeled.rest.length === 0) return { ok: true }; // echo
      return nested(peeled.rest, true);
    }
    case 'flock': {
      const peeled = peelOptions(
        args,
        'flock',
        /^(-s|--shared|-x|-e|--exclusive|-n|--nb|--nonblock|-u|--unlock|-o|--close|-F|--no-fork|--verbose)$/,
        /^(-w|--wait|--timeout|-E|--conflict-exit-code)(=.*)?$/,
      );
      if ('reason' in peeled) return fail(peeled.reason, 'option');
      const [target, ...rest] = peeled.rest;
      if (!target) return { ok: true };
      if (/^\d+$/.test(target.text) && rest.length === 0) return { ok: true };
      const problem = writeTargetProblem(target, ctx);
      if (problem) return fail(`flock creates its lock file: ${problem}`, 'write');
      if (rest[0] && (rest[0].text === '-c' || rest[0].text === '--command')) {
        const script = rest[1];
        if (!script || script.kind !== 'literal') return fail('flock -c runs a command only known when it runs', 'dynamic');
        return nestedScript(script.text, 'flock -c');
      }
      return rest.length === 0 ? { ok: true } : nested(rest, extraDynamic);
    }
    case 'watch': {
      const exec = args.some((w) => w.text === '-x' || w.text === '--exec');
      const peeled = peelOptions(
        args,
        'watch',
        /^(-d|--differences(=.*)?|-t|--no-title|-b|--beep|-e|--errexit|-g|--chgexit|-c|--color|-x|--exec|-p|--precise|-w|--no-wrap)$/,
        /^(-n|--interval|-q|--equexit)(=.*)?$|^-n\S+$/,
      );
      if ('reason' in peeled) return fail(peeled.reason, 'option');
      if (peeled.rest.length === 0) return { ok: true };
      if (exec) return nested(peeled.rest, extraDynamic);
      if (peeled.rest.some((w) => w.kind !== 'literal')) return fail('watch runs a command only known when it runs', 'dynamic');
      // watch joins its arguments and runs them with `sh -c`.
      return nestedScript(peeled.rest.map((w) => w.text).join(' '), 'watch');
    }
    case 'cd':
    case 'pushd':
    case 'popd': {
      const target = args.find((w) => !(w.kind === 'literal' && /^-[LPe@]+$/.test(w.text)));
      if (
        program === 'popd' ||
        !target ||
        target.kind !== 'literal' ||
        normalizeWorkspacePath(target.text, ctx.workspaceRoot) === undefined ||
        target.text.startsWith('~') ||
        target.text === '-'
      ) {
        ctx.cwdEscaped = true;
      } else {
        const normal = normalizeWorkspacePath(target.text, ctx.workspaceRoot)!;
        const real = ctx.resolveLinks?.(normal) ?? normal;
        if (
          protectedReason(normal, ctx.protectedPaths) ||
          real === 'outside' ||
          real === 'unknown' ||
          protectedReason(real, ctx.protectedPaths)
        )
          ctx.cwdEscaped = true;
      }
      return { ok: true };
    }
    case 'set': {
      if (
        args.every(
          (w) =>
            w.kind === 'literal' && /^[-+][euxvfnCBHT]*o?$|^(pipefail|errexit|nounset|xtrace|noclobber|noglob)$/.test(w.text),
        )
      )
        return { ok: true };
      return fail('set with these arguments changes positional parameters or shell options that are not checked', 'option');
    }
    case 'export': {
      for (const word of args) {
        const name = word.text.split('=')[0]!;
        if (word.kind === 'dynamic' || !SAFE_ENV.test(name))
          return fail(`export ${name} changes the environment of later commands`, 'environment');
      }
      return { ok: true };
    }
    default:
      break;
  }

  if (SHELLS.has(program)) {
    if (isVersionQuery(program, args)) return { ok: true };
    const c = args.findIndex((w) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.text) && !w.text.startsWith('--'));
    if (c !== -1) {
      const script = args[c + 1];
      if (!script || script.kind !== 'literal')
        return fail(`${program} -c runs code only known when the command runs`, 'inline-code');
      // The inner findings stay: they describe what the script does (`rm -rf dist`).
      const before = ctx.findings.length;
      analyzeScript(script.text, ctx, depth + 1);
      const detail =
        ctx.findings.length > before
          ? 'see the findings for its commands'
          : 'its commands look harmless, but inline shell code is always confirmed';
      return fail(`${program} -c runs the inline script ${JSON.stringify(script.text)} (${detail})`, 'inline-code');
    }
    const operand = args.find((w) => !w.text.startsWith('-') && !w.text.startsWith('+'));
    if (operand) return fail(`${program} runs the script ${operand.text}, whose code is not checked`, 'unknown-program');
    if (command.pipelineIndex > 0)
      return fail(`a pipe into ${program}: it runs whatever the previous command prints as shell code`, 'inline-code');
    if (command.redirections.some((r) => r.op.startsWith('<')))
      return fail(
        `${program} reads shell code from its input (${command.redirections.find((r) => r.op.startsWith('<'))!.op} …)`,
        'inline-code',
      );
    return fail(`${program} starts a shell that runs whatever it reads`, 'inline-code');
  }

  if (isInterpreter(program)) {
    if (isVersionQuery(program, args)) return { ok: true };
    const inlineFlags = INLINE_FLAGS[program] ?? INLINE_FLAGS.python!;
    // `-c`, a cluster holding it (`-Bc`), or the code glued on (`-cprint(1)`), or `--eval=…`.
    const inline = args.find((w) =>
      inlineFlags.some(
        (f) =>
          w.text === f ||
          w.text.startsWith(`${f}=`) ||
          (f.length === 2 && w.text.startsWith('-') && !w.text.startsWith('--') && w.text.slice(1).includes(f[1]!)),
      ),
    );
    if (inline) {
      const code = args[args.indexOf(inline) + 1];
      return fail(
        `${program} ${inline.text} runs inline code${code ? ` (${JSON.stringify(code.text.length > 120 ? `${code.text.slice(0, 120)}…` : code.text)})` : ''} that cannot be checked`,
        'inline-code',
      );
    }
    const module = args.findIndex((w) => w.text === '-m');
    if (module !== -1)
      return fail(`${program} -m ${args[module + 1]?.text ?? ''} runs a module whose code is not checked`, 'unknown-program');
    const operand = args.find((w) => !w.text.startsWith('-'));
    if (operand) return fail(`${program} runs the script ${operand.text}, whose code is not checked`, 'unknown-program');
    if (command.pipelineIndex > 0)
      return fail(`a pipe into ${program}: it runs whatever the previous command prints as code`, 'inline-code');
    return fail(`${program} runs code from its input, which is not checked`, 'inline-code');
  }

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

function checkAssignments(command: ShellCommand, ctx: Context): void {
  const bare = command.argv.length === 0;
  for (const word of command.assignments) {
    const name = word.text.slice(0, word.text.search(/\+?=|\[/));
    const value = word.text.slice(word.text.indexOf('=') + 1);
    if (bare ? DANGEROUS_SHELL_VARS.test(name) : !SAFE_ENV.test(name)) {
      ctx.findings.push({
        command: commandText(command),
        reason: bare
          ? `sets ${name}, which changes what later commands run or read`
          : `runs ${command.argv[0]?.text ?? 'the command'} with ${name} set, which can change what it runs or reads`,
        kind: 'environment',
        words: command.words,
        simple: command,
      });
    } else if (word.text.includes('[') || (word.kind === 'literal' && /\$\(|`/.test(value))) {
      // Text like 'a[$(cmd)]' runs when a later arithmetic expansion reads the variable.
      ctx.findings.push({
        command: commandText(command),
        reason: `sets ${name} to text that can run commands when the variable is later evaluated`,
        kind: 'dynamic',
        words: command.words,
        simple: command,
      });
    }
  }
}

function checkRedirections(command: ShellCommand, ctx: Context): void {
  for (const r of command.redirections) {
    // bash opens network connections for /dev/tcp and /dev/udp, reading or writing.
    if (/^\/dev\/(tcp|udp)\//.test(r.target.text)) {
      ctx.findings.push({
        command: commandText(command),
        reason: `the redirection ${r.op} ${r.target.text} opens a network connection`,
        kind: 'write',
        words: command.words,
        simple: command,
      });
      continue;
    }
    const writes = r.op.includes('>') && !(r.op === '>&' && /^(\d+-?|-)$/.test(r.target.text));
    if (!writes) continue;
    const problem =
      ctx.cwdEscaped && !/^\/dev\//.test(r.target.text)
        ? `writes to ${r.target.text} after a cd that left the ordinary workspace paths`
        : writeTargetProblem(r.target, ctx);
    if (problem)
      ctx.findings.push({
        command: commandText(command),
        reason: `the redirection ${r.fd ?? ''}${r.op} ${problem}`,
        kind: 'write',
        words: command.words,
        simple: command,
      });
  }
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
  for (const command of script.commands) {
    ctx.commands.push({ command, script: script.commands });
    checkAssignments(command, ctx);
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
  const ctx: Context = { ...options, findings: [], allowedBy: new Set(), commands: [], problems: [], cwdEscaped: false };
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

export { literal as literalWord };
