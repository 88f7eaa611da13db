/**
 * Wrapper programs and shell builtins that the classifier looks through or tracks: `env`, `nice`,
 * `timeout`, `xargs`, `flock`, `watch`, … run another command (analyzed one level deeper); `cd`
 * and `set`/`export` change the state later commands run in. Each wrapper's options are known
 * exactly: an unknown option is not proven harmless.
 */
import { fail, SAFE_ENV } from './classify-context.js';
import type { ArgvVerdict, Context, NestedArgv, NestedScript } from './classify-context.js';
import type { ShellWord } from './shell-syntax.js';
import { normalizeWorkspacePath, protectedReason, writeTargetProblem } from './workspace-path.js';

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

/**
 * A wrapper given no command of its own: harmless, unless more arguments are appended when it
 * runs (`ls | xargs nice`), since those then name the program it starts.
 */
function runsNothing(program: string, extraDynamic: boolean): ArgvVerdict {
  return extraDynamic
    ? fail(`${program} gets the program it runs only when it runs (from xargs), so that program is not checked`, 'dynamic')
    : { ok: true };
}

/**
 * Whether a folder a command moves into (`cd DIR`, `env -C DIR`) leaves the ordinary workspace
 * paths: outside the workspace, into `.git` or a protected path, through a link, or only known
 * when it runs. Relative write targets are then not where they look.
 */
function leavesWorkspace(target: ShellWord | undefined, ctx: Context): boolean {
  if (!target || target.kind !== 'literal' || target.text.startsWith('~') || target.text === '-') return true;
  const normal = normalizeWorkspacePath(target.text, ctx.workspaceRoot);
  if (normal === undefined) return true;
  const real = ctx.resolveLinks?.(normal) ?? normal;
  return (
    protectedReason(normal, ctx.protectedPaths) !== undefined ||
    real === 'outside' ||
    real === 'unknown' ||
    protectedReason(real, ctx.protectedPaths) !== undefined
  );
}

/** The folders `env -C DIR`, `-CDIR`, `--chdir DIR`, `--chdir=DIR` move into (before the program). */
function envChdirTargets(args: readonly ShellWord[]): (ShellWord | undefined)[] {
  const targets: (ShellWord | undefined)[] = [];
  for (let i = 0; i < args.length; i++) {
    const text = args[i]!.text;
    if (text === '--' || !text.startsWith('-') || text === '-') break;
    if (text === '-C' || text === '--chdir') targets.push(args[++i]);
    else if (text.startsWith('--chdir=')) targets.push({ ...args[i]!, text: text.slice('--chdir='.length) });
    else if (/^-C\S/.test(text)) targets.push({ ...args[i]!, text: text.slice(2) });
    else if (text === '-u' || text === '--unset') i += 1;
  }
  return targets;
}

/**
 * The verdict for a wrapper or state-changing builtin, or undefined when `program` is neither
 * (then the caller goes on with shells, interpreters and the harmless-program table).
 */
export function analyzeWrapper(
  program: string,
  args: readonly ShellWord[],
  extraDynamic: boolean,
  ctx: Context,
  nested: NestedArgv,
  nestedScript: NestedScript,
): ArgvVerdict | undefined {
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
      if (rest.length === 0) return runsNothing('env', extraDynamic);
      // env -C DIR runs the program in DIR: like a cd that lasts for this program only.
      const escapes = envChdirTargets(args).some((dir) => leavesWorkspace(dir, ctx));
      const wasEscaped = ctx.cwdEscaped;
      if (escapes) ctx.cwdEscaped = true;
      try {
        return nested(rest, extraDynamic);
      } finally {
        ctx.cwdEscaped = wasEscaped;
      }
    }
    case 'nice': {
      const peeled = peelOptions(args, 'nice', /^-\d+$/, /^(-n|--adjustment)(=.*)?$|^-n\S+$/);
      if ('reason' in peeled) return fail(peeled.reason, 'option');
      return peeled.rest.length === 0 ? runsNothing(program, extraDynamic) : nested(peeled.rest, extraDynamic);
    }
    case 'ionice': {
      const peeled = peelOptions(args, 'ionice', /^(-t|--ignore)$/, /^(-c|-n|--class|--classdata)(=.*)?$|^-[cn]\S+$/);
      if ('reason' in peeled) return fail(`${peeled.reason} (ionice -p changes other processes)`, 'option');
      return peeled.rest.length === 0 ? runsNothing(program, extraDynamic) : nested(peeled.rest, extraDynamic);
    }
    case 'timeout': {
      const peeled = peelOptions(
        args,
        'timeout',
        /^(--preserve-status|--foreground|-v|--verbose)$/,
        /^(-s|--signal|-k|--kill-after)(=.*)?$|^-[sk]\S+$/,
      );
      if ('reason' in peeled) return fail(peeled.reason, 'option');
      return peeled.rest.length <= 1 ? runsNothing('timeout', extraDynamic) : nested(peeled.rest.slice(1), extraDynamic);
    }
    case 'setsid':
    case 'nohup':
    case 'builtin': {
      const peeled = peelOptions(args, program, program === 'setsid' ? /^(-f|--fork|-w|--wait|-c|--ctty)$/ : /^$/, /^$/);
      if ('reason' in peeled) return fail(peeled.reason, 'option');
      return peeled.rest.length === 0 ? runsNothing(program, extraDynamic) : nested(peeled.rest, extraDynamic);
    }
    case 'stdbuf': {
      const peeled = peelOptions(args, 'stdbuf', /^$/, /^(-i|-o|-e|--input|--output|--error)(=.*)?$|^-[ioe]\S+$/);
      if ('reason' in peeled) return fail(peeled.reason, 'option');
      return peeled.rest.length === 0 ? runsNothing(program, extraDynamic) : nested(peeled.rest, extraDynamic);
    }
    case 'time': {
      const peeled = peelOptions(args, 'time', /^(-p|--portability|-v|--verbose|-q|--quiet)$/, /^(-f|--format)(=.*)?$/);
      if ('reason' in peeled) return fail(`${peeled.reason} (time -o writes a file)`, 'option');
      return peeled.rest.length === 0 ? runsNothing(program, extraDynamic) : nested(peeled.rest, extraDynamic);
    }
    case 'command': {
      if (args[0] && (args[0].text === '-v' || args[0].text === '-V')) return { ok: true };
      const peeled = peelOptions(args, 'command', /^-p$/, /^$/);
      if ('reason' in peeled) return fail(peeled.reason, 'option');
      return peeled.rest.length === 0 ? runsNothing(program, extraDynamic) : nested(peeled.rest, extraDynamic);
    }
    case 'exec': {
      const peeled = peelOptions(args, 'exec', /^(-c|-l|-cl|-lc)$/, /^-a$/);
      if ('reason' in peeled) return fail(peeled.reason, 'option');
      return peeled.rest.length === 0 ? runsNothing(program, extraDynamic) : nested(peeled.rest, extraDynamic);
    }
    case 'busybox': {
      if (args.length === 0) return runsNothing('busybox', extraDynamic);
      if (args.length === 1 && /^--list/.test(args[0]!.text)) return { ok: true };
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
      if (peeled.rest.length === 0) return runsNothing('xargs', extraDynamic); // runs echo, unless an outer xargs appends a program
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
      // xargs appends the lock file or the command: neither is checked.
      if (!target || rest.length === 0) {
        if (extraDynamic) return runsNothing('flock', extraDynamic);
        if (!target || /^\d+$/.test(target.text)) return { ok: true };
      }
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
      if (peeled.rest.length === 0) return runsNothing('watch', extraDynamic);
      if (exec) return nested(peeled.rest, extraDynamic);
      if (peeled.rest.some((w) => w.kind !== 'literal')) return fail('watch runs a command only known when it runs', 'dynamic');
      // watch joins its arguments and runs them with `sh -c`.
      return nestedScript(peeled.rest.map((w) => w.text).join(' '), 'watch');
    }
    case 'cd':
    case 'pushd':
    case 'popd': {
      const target = args.find((w) => !(w.kind === 'literal' && /^-[LPe@]+$/.test(w.text)));
      if (program === 'popd' || leavesWorkspace(target, ctx)) ctx.cwdEscaped = true;
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
      return undefined;
  }
}
