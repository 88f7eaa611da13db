/**
 * The table of known-harmless programs and the version-query rule. Each entry reads, prints or
 * computes; its checker lists the exceptions. The checkers live in `program-checks.ts` (generic),
 * `script-programs.ts` (tee, sed, awk, find) and `git-program.ts`.
 */
import { git } from './git-program.js';
import { anyArguments, no, OK, options, outputOperand } from './program-checks.js';
import type { ProgramChecker } from './program-checks.js';
import { awk, find, sed, tee } from './script-programs.js';
import type { ShellWord } from './shell-syntax.js';

const testBuiltin: ProgramChecker = (check) => {
  // `test -v 'a[$(cmd)]'` evaluates the subscript: refused.
  if (check.args.some((w) => w.text === '-v' || w.text === '-R'))
    return no(`${check.program} -v evaluates a variable name that can run commands`);
  return OK;
};

const noOperands: ProgramChecker = (check) =>
  check.args.length === 0 && !check.extraDynamic ? OK : no(`${check.program} with arguments can change the machine`);

/**
 * The known-harmless programs: each reads, prints or computes, with the listed exceptions for
 * options that write files, delete or run programs. A program missing here is not harmless.
 */
export const HARMLESS_PROGRAMS: Readonly<Record<string, ProgramChecker>> = {
  ls: anyArguments,
  cat: anyArguments,
  head: anyArguments,
  tail: anyArguments,
  wc: anyArguments,
  grep: anyArguments,
  egrep: anyArguments,
  fgrep: anyArguments,
  zgrep: anyArguments,
  stat: anyArguments,
  pwd: anyArguments,
  true: anyArguments,
  false: anyArguments,
  ':': anyArguments,
  echo: anyArguments,
  printf: options({ short: 'v' }),
  test: testBuiltin,
  '[': testBuiltin,
  '[[': testBuiltin,
  diff: anyArguments,
  cmp: anyArguments,
  sort: options({
    short: 'o',
    long: ['--output', '--compress-program'],
    shortWithValue: 'tkSTt',
    longWithValue: ['--key', '--field-separator', '--buffer-size', '--temporary-directory'],
  }),
  uniq: outputOperand(1, { shortWithValue: 'fsw' }),
  cut: anyArguments,
  tr: anyArguments,
  nl: anyArguments,
  tac: anyArguments,
  rev: anyArguments,
  fold: anyArguments,
  paste: anyArguments,
  column: anyArguments,
  comm: anyArguments,
  join: anyArguments,
  expand: anyArguments,
  unexpand: anyArguments,
  fmt: anyArguments,
  od: anyArguments,
  hexdump: anyArguments,
  xxd: outputOperand(1, { shortWithValue: 'cglosn' }),
  strings: anyArguments,
  base64: anyArguments,
  base32: anyArguments,
  md5sum: anyArguments,
  sha1sum: anyArguments,
  sha224sum: anyArguments,
  sha256sum: anyArguments,
  sha384sum: anyArguments,
  sha512sum: anyArguments,
  b2sum: anyArguments,
  cksum: anyArguments,
  jq: anyArguments,
  date: options({ short: 's', long: ['--set'], shortWithValue: 'dfrI', longWithValue: ['--date', '--file', '--reference'] }),
  which: anyArguments,
  type: anyArguments,
  basename: anyArguments,
  dirname: anyArguments,
  realpath: anyArguments,
  readlink: anyArguments,
  du: anyArguments,
  df: anyArguments,
  tree: options({ short: 'oR', long: ['--output'], shortWithValue: 'LPIH', longWithValue: ['--filelimit', '--charset'] }),
  whoami: anyArguments,
  id: anyArguments,
  uname: anyArguments,
  hostname: noOperands,
  nproc: anyArguments,
  printenv: anyArguments,
  seq: anyArguments,
  sleep: anyArguments,
  expr: anyArguments,
  file: options({
    short: 'C',
    long: ['--compile'],
    shortWithValue: 'emfFP',
    longWithValue: ['--magic-file', '--files-from', '--separator'],
  }),
  rg: options({ long: ['--pre', '--pre-glob', '--hostname-bin'] }),
  fd: options({ short: 'xX', long: ['--exec', '--exec-batch'] }),
  tee,
  sed,
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  find,
  git,
  locale: anyArguments,
  arch: anyArguments,
  tty: anyArguments,
  uptime: anyArguments,
  free: anyArguments,
  ps: anyArguments,
  pgrep: anyArguments,
  groups: anyArguments,
  factor: anyArguments,
  yes: anyArguments,
  cal: anyArguments,
  numfmt: anyArguments,
  getconf: anyArguments,
  // Shell builtins that only end or wait: no effect outside this shell.
  exit: anyArguments,
  return: anyArguments,
  wait: anyArguments,
};

/** Toolchains whose `--version` (alone) only prints a version. */
// Left out on purpose: launchers that pick a toolchain from files in the project and may download
// or run it first — pnpm/yarn (corepack's "packageManager"), go (go.mod "toolchain"), cargo/rustc
// (rust-toolchain.toml may name a local path), mvn/gradle (project JVM and wrapper settings).
export const VERSION_QUERY_PROGRAMS = new Set([
  'node',
  'npm',
  'deno',
  'bun',
  'python',
  'python3',
  'pip',
  'pip3',
  'ruby',
  'perl',
  'php',
  'java',
  'javac',
  'gcc',
  'g++',
  'cc',
  'clang',
  'make',
  'cmake',
  'git',
  'docker',
  'bash',
  'sh',
  'zsh',
  'dash',
  'rg',
  'fd',
  'jq',
  'gh',
  'sqlite3',
  'psql',
  'lua',
]);

/** True for `X --version` (or `-v` / `-V` for the runtimes that print their version that way). */
export function isVersionQuery(program: string, args: readonly ShellWord[]): boolean {
  if (!VERSION_QUERY_PROGRAMS.has(program) || args.length !== 1 || args[0]!.kind !== 'literal') return false;
  const flag = args[0]!.text;
  if (flag === '--version') return true;
  if (flag === '-v') return ['node', 'npm', 'bun', 'deno'].includes(program);
  if (flag === '-V') return ['python', 'python3'].includes(program);
  return false;
}
