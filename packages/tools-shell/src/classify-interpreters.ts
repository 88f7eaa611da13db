/**
 * Shells and language interpreters: programs that run code given as a string, a script file or
 * their input. Their code is never checked, so they are harmless only when asked for a version;
 * `sh -c '…'` is still read to describe what it would do.
 */
import { fail } from './classify-context.js';
import type { ArgvVerdict, Context } from './classify-context.js';
import { isVersionQuery } from './harmless-programs.js';
import type { ShellCommand, ShellWord } from './shell-syntax.js';

/** Programs that run a command with other rights. */
export const ELEVATING = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0', 'sg', 'newgrp', 'chroot']);
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
/** Shell builtins and programs that run strings as code or change what later commands mean. */
export const SHELL_WORDS_RUNNING_STRINGS: Record<string, string> = {
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

/** True for a language interpreter (`node`, `python3`, `perl`, …). */
export function isInterpreter(program: string): boolean {
  return program in INLINE_FLAGS || /^python[\d.]*$/.test(program) || /^pypy\d*$/.test(program);
}

/**
 * The verdict for a shell or an interpreter, or undefined when `program` is neither.
 * `analyzeScript` reads an inline `sh -c` script one level deeper, for its findings.
 */
export function analyzeInterpreter(
  program: string,
  args: readonly ShellWord[],
  command: ShellCommand,
  ctx: Context,
  analyzeScript: (script: string) => void,
): ArgvVerdict | undefined {
  if (SHELLS.has(program)) {
    if (isVersionQuery(program, args)) return { ok: true };
    const c = args.findIndex((w) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.text) && !w.text.startsWith('--'));
    if (c !== -1) {
      const script = args[c + 1];
      if (!script || script.kind !== 'literal')
        return fail(`${program} -c runs code only known when the command runs`, 'inline-code');
      // The inner findings stay: they describe what the script does (`rm -rf dist`).
      const before = ctx.findings.length;
      analyzeScript(script.text);
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
  return undefined;
}
