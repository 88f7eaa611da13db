import type { ShellWord } from './shell-syntax.js';

/** Whether one program invocation is proven harmless, and if not, why. */
export type Verdict = { ok: true } | { ok: false; reason: string };

/** What a program's check sees. */
export interface ProgramCheck {
  /** The program name (base name). */
  program: string;
  /** Arguments after the program. */
  args: readonly ShellWord[];
  /** True when more arguments are appended at run time (`xargs grep x`, `find -exec wc {} +`). */
  extraDynamic: boolean;
  /** True after a `cd` that left the ordinary workspace paths (git would read another repository's configuration). */
  cwdEscaped?: boolean;
  /** Checks a command this program runs itself, without a shell (`find -exec CMD {} ;`). */
  nested(argv: readonly ShellWord[], extraDynamic: boolean): Verdict;
  /** Why the command may not write to this file without confirmation, or undefined. */
  writeTarget(word: ShellWord): string | undefined;
}

/** Decides whether a known program is harmless with the arguments given. */
export type ProgramChecker = (check: ProgramCheck) => Verdict;

const OK: Verdict = { ok: true };
const no = (reason: string): Verdict => ({ ok: false, reason });

/** Options of a program that make it write, run code or change the machine. */
interface DangerousOptions {
  /** Short options (single characters) that are dangerous. */
  short?: string;
  /** Long options (with the leading `--`) that are dangerous; any GNU abbreviation of them counts too. */
  long?: readonly string[];
  /** Short options that take a value (the rest of the cluster, or the next word). */
  shortWithValue?: string;
  /** Long options that take a value as the next word. */
  longWithValue?: readonly string[];
  /** Options of a program with single-dash long options (`find -delete`), matched exactly or by prefix. */
  single?: readonly string[];
}

/**
 * Checks options against a program's dangerous ones. An argument that is only known at run time
 * (`$x`, `*`) could itself be a dangerous option, so it is refused unless the program has none.
 * GNU long options may be abbreviated (`--rec` is `--recursive`): any prefix of a dangerous long
 * option is refused.
 */
function checkOptions(name: string, check: ProgramCheck, danger: DangerousOptions): Verdict {
  const hasDanger = (danger.short?.length ?? 0) > 0 || (danger.long?.length ?? 0) > 0 || (danger.single?.length ?? 0) > 0;
  if (hasDanger && check.extraDynamic)
    return no(`${name} gets arguments only known when it runs, and some ${name} options write or run programs`);
  let endOfOptions = false;
  const args = check.args;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.kind === 'dynamic') {
      if (hasDanger)
        return no(
          `the argument ${word.text} of ${name} is only known when it runs and could be an option that writes or runs programs`,
        );
      continue;
    }
    const text = word.text;
    if (endOfOptions || !text.startsWith('-') || text === '-') continue;
    if (text === '--') {
      endOfOptions = true;
      continue;
    }
    if (text.startsWith('--')) {
      const option = text.split('=')[0]!;
      const hit = danger.long?.find((d) => d.startsWith(option) && option.length > 2);
      if (hit) return no(`${name} ${option}${option === hit ? '' : ` (short for ${hit})`} writes files or runs programs`);
      if (danger.longWithValue?.includes(option) && !text.includes('=')) i += 1;
      continue;
    }
    if (danger.single) {
      const hit = danger.single.find((d) => d === text || (d.startsWith(text) && text.length > 2));
      if (hit) return no(`${name} ${text} writes files, deletes or runs programs`);
    }
    if (/^-\d+$/.test(text)) continue;
    for (let c = 1; c < text.length; c++) {
      const ch = text[c]!;
      if (danger.short?.includes(ch)) return no(`${name} -${ch} writes files or runs programs`);
      if (danger.shortWithValue?.includes(ch)) {
        if (c === text.length - 1) i += 1;
        break;
      }
    }
  }
  return OK;
}

const options =
  (danger: DangerousOptions): ProgramChecker =>
  (check) =>
    checkOptions(check.program, check, danger);

/** Programs with no option that writes, deletes or runs anything: every argument is harmless. */
const anyArguments: ProgramChecker = () => OK;

/** Operands of a program that are output files (`uniq IN OUT`, `xxd IN OUT`). */
function outputOperand(index: number, danger: DangerousOptions = {}): ProgramChecker {
  return (check) => {
    const flags = checkOptions(check.program, check, danger);
    if (!flags.ok) return flags;
    if (check.extraDynamic) return no(`${check.program} gets arguments only known when it runs; one could be an output file`);
    // Operands, skipping option values (`uniq -f 1 IN OUT`: OUT is the third word).
    const operands: ShellWord[] = [];
    let endOfOptions = false;
    for (let i = 0; i < check.args.length; i++) {
      const word = check.args[i]!;
      if (endOfOptions || !word.text.startsWith('-') || word.text === '-') {
        operands.push(word);
        continue;
      }
      if (word.text === '--') {
        endOfOptions = true;
        continue;
      }
      if (word.text.startsWith('--')) continue;
      const last = word.text[word.text.length - 1]!;
      const firstValued = [...word.text.slice(1)].findIndex((ch) => danger.shortWithValue?.includes(ch));
      if (firstValued === word.text.length - 2 && danger.shortWithValue?.includes(last)) i += 1;
    }
    const out = operands[index];
    if (out) {
      const problem = check.writeTarget(out);
      if (problem) return no(`${check.program} ${problem}`);
    }
    return OK;
  };
}

const tee: ProgramChecker = (check) => {
  if (check.extraDynamic) return no('tee gets file names only known when it runs');
  let endOfOptions = false;
  for (const word of check.args) {
    if (!endOfOptions && word.kind === 'literal' && word.text === '--') {
      endOfOptions = true;
      continue;
    }
    if (!endOfOptions && word.kind === 'literal' && word.text.startsWith('-') && word.text !== '-') {
      if (!/^(-[aip]+|--append|--ignore-interrupts|--output-error(=.*)?)$/.test(word.text))
        return no(`tee ${word.text} is not a known tee option`);
      continue;
    }
    const problem = check.writeTarget(word);
    if (problem) return no(`tee ${problem}`);
  }
  return OK;
};

/** True when a sed script only prints, deletes lines, substitutes or transliterates (no w, e, r, …). */
export function isSimpleSedScript(script: string): boolean {
  let i = 0;
  const s = script;
  const skipRegex = (delimiter: string): boolean => {
    while (i < s.length) {
      if (s[i] === '\\') i += 2;
      else if (s[i] === delimiter) {
        i += 1;
        return true;
      } else if (s[i] === '\n') return false;
      else i += 1;
    }
    return false;
  };
  const address = (): boolean => {
    if (/\d/.test(s[i] ?? '')) {
      while (/[\d~]/.test(s[i] ?? '')) i += 1;
      return true;
    }
    if (s[i] === '$') {
      i += 1;
      return true;
    }
    if (s[i] === '/') {
      i += 1;
      if (!skipRegex('/')) return false;
      while (/[IM]/.test(s[i] ?? '')) i += 1;
      return true;
    }
    return true;
  };
  while (i < s.length) {
    while (/[\s;]/.test(s[i] ?? '')) i += 1;
    if (i >= s.length) break;
    if (!address()) return false;
    if (s[i] === ',') {
      i += 1;
      if (s[i] === '+') i += 1;
      if (!address()) return false;
    }
    while (s[i] === ' ') i += 1;
    if (s[i] === '!') i += 1;
    while (s[i] === ' ') i += 1;
    const command = s[i];
    if (command === undefined) return false;
    i += 1;
    if ('pdqQ=nNgGhHxlzPD{}'.includes(command)) {
      while (/\d/.test(s[i] ?? '')) i += 1;
      continue;
    }
    if (command === 's' || command === 'y') {
      const delimiter = s[i];
      if (delimiter === undefined || delimiter === '\\' || delimiter === '\n') return false;
      i += 1;
      if (!skipRegex(delimiter) || !skipRegex(delimiter)) return false;
      if (command === 's') {
        // Flags: g, p, a number, i/I, m/M. `w FILE` writes and `e` executes: refused.
        while (/[gpiImM\d]/.test(s[i] ?? '')) i += 1;
      }
      if (i < s.length && !/[\s;}]/.test(s[i]!)) return false;
      continue;
    }
    return false;
  }
  return true;
}

const sed: ProgramChecker = (check) => {
  if (check.extraDynamic) return no('sed gets arguments only known when it runs');
  const scripts: string[] = [];
  const args = check.args;
  // GNU sed permutes: options after the script and the files still count (`sed s/a/b/ f -i`).
  const operands: ShellWord[] = [];
  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.kind === 'dynamic') return no(`the argument ${word.text} of sed is only known when it runs`);
    const text = word.text;
    if (endOfOptions || !text.startsWith('-') || text === '-') {
      operands.push(word);
      continue;
    }
    if (text === '--') {
      endOfOptions = true;
      continue;
    }
    if (text === '-e' || text === '--expression') {
      const next = args[++i];
      if (!next || next.kind !== 'literal') return no('the sed script is only known when it runs');
      scripts.push(next.text);
      continue;
    }
    if (text.startsWith('--expression=')) {
      scripts.push(text.slice('--expression='.length));
      continue;
    }
    if (
      /^-[nErsuz]+$/.test(text) ||
      /^--(quiet|silent|regexp-extended|separate|unbuffered|null-data|posix|debug|sandbox)$/.test(text)
    )
      continue;
    if (/^-[nErsuz]*e./.test(text)) {
      scripts.push(text.slice(text.indexOf('e') + 1));
      continue;
    }
    if (/^-[nErsuz]*i/.test(text) || text.startsWith('--in')) return no('sed -i edits files in place');
    if (/^-[nErsuz]*f/.test(text) || text.startsWith('--file'))
      return no('sed -f runs a script from a file, which is not checked here');
    return no(`sed ${text} is not a known sed option`);
  }
  if (scripts.length === 0) {
    const script = operands[0];
    if (!script) return OK;
    if (script.kind !== 'literal') return no('the sed script is only known when it runs');
    scripts.push(script.text);
  }
  for (const script of scripts) {
    if (!isSimpleSedScript(script))
      return no(
        `the sed script ${JSON.stringify(script)} uses commands that can write files or run programs (only p, d, q, s and y without w/e flags are checked)`,
      );
  }
  return OK;
};

const awk: ProgramChecker = (check) => {
  if (check.extraDynamic) return no('awk gets arguments only known when it runs');
  const args = check.args;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word.kind === 'dynamic') return no(`the argument ${word.text} of awk is only known when it runs`);
    const text = word.text;
    if (text === '-F' || text === '-v') {
      i += 1;
      continue;
    }
    if (/^-[Fv]./.test(text)) continue;
    if (text === '--') {
      const program = args[i + 1];
      return program ? awkProgram(program) : OK;
    }
    if (text.startsWith('-') && text !== '-') return no(`awk ${text} is not checked (it may load code from a file)`);
    return awkProgram(word);
  }
  return OK;
};

function awkProgram(program: ShellWord): Verdict {
  if (program.kind !== 'literal') return no('the awk program is only known when it runs');
  // system(), pipes, output redirection and getline can run programs or write files; `>` also
  // rejects comparisons, which then need a confirmation: the cost of proving instead of guessing.
  if (/system|\||>|getline|@load|@include|ENVIRON\s*\[/.test(program.text)) {
    return no('the awk program may run commands or write files (system, |, >, getline): it is not checked further');
  }
  return OK;
}

const find: ProgramChecker = (check) => {
  if (check.extraDynamic) return no('find gets arguments only known when it runs');
  const args = check.args;
  let i = 0;
  while (i < args.length && /^-[HLP]$|^-O\d$|^-D$/.test(args[i]!.text)) i += args[i]!.text === '-D' ? 2 : 1;
  const roots: ShellWord[] = [];
  while (i < args.length && !args[i]!.text.startsWith('-') && args[i]!.text !== '(' && args[i]!.text !== '!')
    roots.push(args[i++]!);
  if (roots.some((r) => r.kind === 'dynamic'))
    return no('a starting point of find is only known when it runs and could be an action');
  // What `{}` becomes: a path under a starting point (never an option when every root is a plain path).
  const placeholder: ShellWord['kind'] = roots.every((r) => !r.text.startsWith('-')) ? 'path-like' : 'dynamic';
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (word.kind === 'dynamic')
      return no(`the find argument ${word.text} is only known when it runs and could be an action such as -delete`);
    const text = word.text;
    if (text === '-delete') return no('find -delete deletes every file it matches');
    if (/^-f(print0?|printf|ls)$/.test(text)) return no(`find ${text} writes a file`);
    if (text === '-exec' || text === '-execdir' || text === '-ok' || text === '-okdir') {
      const inner: ShellWord[] = [];
      let j = i + 1;
      while (j < args.length && args[j]!.text !== ';' && args[j]!.text !== '+') {
        const w = args[j]!;
        inner.push(w.text.includes('{}') ? { text: w.text, kind: placeholder, quoted: false } : w);
        j += 1;
      }
      if (j >= args.length) return no(`find ${text} without its closing ; or +`);
      const verdict = check.nested(inner, false);
      if (!verdict.ok) return no(`find ${text} runs ${inner.map((w) => w.text).join(' ') || 'nothing'}: ${verdict.reason}`);
      i = j;
      continue;
    }
  }
  return OK;
};

const READ_ONLY_GIT: Record<string, DangerousOptions> = {
  status: {},
  diff: { long: ['--output'] },
  log: { long: ['--output'] },
  show: { long: ['--output'] },
  shortlog: {},
  'rev-parse': {},
  'rev-list': {},
  'ls-files': {},
  'ls-tree': {},
  blame: {},
  annotate: {},
  describe: {},
  'cat-file': {},
  'merge-base': {},
  'name-rev': {},
  'for-each-ref': {},
  'show-ref': {},
  'count-objects': {},
  'diff-tree': { long: ['--output'] },
  'diff-files': { long: ['--output'] },
  'diff-index': { long: ['--output'] },
  whatchanged: { long: ['--output'] },
  grep: { short: 'O', long: ['--open-files-in-pager'] },
  version: {},
};

const GIT_SAFE_GLOBAL = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-replace-objects',
]);

const git: ProgramChecker = (check) => {
  if (check.extraDynamic) return no('git gets arguments only known when it runs');
  if (check.cwdEscaped)
    return no(
      'git runs in a folder outside the ordinary workspace paths, whose repository configuration (hooks, core.fsmonitor) can run programs',
    );
  const args = check.args;
  let i = 0;
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (word.kind === 'dynamic') return no(`the git argument ${word.text} is only known when it runs`);
    if (!word.text.startsWith('-')) break;
    if (GIT_SAFE_GLOBAL.has(word.text)) continue;
    if (word.text === '--version') return OK;
    if (word.text === '-C') {
      const dir = args[i + 1];
      if (!dir) return no('git -C without a folder');
      const problem = check.writeTarget(dir);
      if (problem)
        return no(
          `git -C ${dir.text}: a repository outside the ordinary workspace paths can carry its own configuration (hooks, fsmonitor) that git would run`,
        );
      i += 1;
      continue;
    }
    if (word.text === '-c' || word.text.startsWith('--config-env'))
      return no(`git ${word.text} sets configuration for this command (core.fsmonitor, core.pager, aliases can run programs)`);
    if (/^--(git-dir|work-tree|exec-path|namespace|super-prefix|bare|paginate)/.test(word.text) || word.text === '-p') {
      return no(`git ${word.text.split('=')[0]} changes which repository, configuration or helper programs git uses`);
    }
    return no(`git ${word.text} is not a known harmless git option`);
  }
  const sub = args[i]?.text;
  if (sub === undefined) return OK; // prints the usage
  const rest = args.slice(i + 1);
  const texts = rest.map((w) => w.text);
  const subCheck = (danger: DangerousOptions): Verdict => checkOptions(`git ${sub}`, { ...check, args: rest }, danger);
  if (sub in READ_ONLY_GIT) return subCheck(READ_ONLY_GIT[sub]!);
  if (sub === 'branch') {
    const listing = new Set([
      '-a',
      '-r',
      '-l',
      '--list',
      '-v',
      '-vv',
      '--all',
      '--remotes',
      '--show-current',
      '--no-color',
      '--color',
      '--column',
      '--no-column',
      '--merged',
      '--no-merged',
      '--contains',
      '--no-contains',
      '--points-at',
      '-i',
      '--ignore-case',
      '--omit-empty',
    ]);
    const list = texts.includes('-l') || texts.includes('--list');
    for (let j = 0; j < texts.length; j++) {
      const t = texts[j]!;
      if (rest[j]!.kind === 'dynamic') return no(`the git branch argument ${t} is only known when it runs`);
      if (t.startsWith('--sort=') || t.startsWith('--format=') || t.startsWith('--color=') || t.startsWith('--abbrev')) continue;
      if (['--merged', '--no-merged', '--contains', '--no-contains', '--points-at'].includes(t)) {
        j += 1;
        continue;
      }
      if (t.startsWith('-')) {
        if (!listing.has(t)) return no(`git branch ${t} changes branches`);
        continue;
      }
      if (!list) return no(`git branch ${t} creates a branch`);
    }
    return OK;
  }
  if (sub === 'tag') {
    // Listing only: every option a listing option, and names only as patterns of -l/--list.
    const list = texts.includes('-l') || texts.includes('--list');
    for (let j = 0; j < texts.length; j++) {
      const t = texts[j]!;
      if (rest[j]!.kind === 'dynamic') return no(`the git tag argument ${t} is only known when it runs`);
      if (['--contains', '--no-contains', '--points-at', '--merged', '--no-merged'].includes(t)) {
        j += 1;
        continue;
      }
      if (t.startsWith('-')) {
        if (!/^(-l|--list|-n\d*|--sort=.*|--format=.*|--column|--no-column|-i|--ignore-case|--color(=.*)?)$/.test(t))
          return no(`git tag ${t} creates, deletes or signs tags`);
        continue;
      }
      if (!list) return no(`git tag ${t} creates a tag`);
    }
    return OK;
  }
  if (sub === 'remote') {
    if (texts.length === 0 || (texts.length === 1 && texts[0] === '-v') || texts[0] === 'get-url') return OK;
    return no(`git remote ${texts.join(' ')} changes or contacts remotes`);
  }
  if (sub === 'stash') {
    if (texts[0] === 'list' || texts[0] === 'show')
      return checkOptions('git stash', { ...check, args: rest.slice(1) }, { long: ['--output'] });
    return no(`git stash ${texts[0] ?? ''} changes the working tree`.trim());
  }
  if (sub === 'worktree' && texts[0] === 'list') return OK;
  if (sub === 'reflog' && (texts.length === 0 || texts[0] === 'show')) return OK;
  if (sub === 'config') {
    const first = texts[0];
    if (
      first &&
      /^(--get|--get-all|--get-regexp|--list|-l|get|list)$/.test(first) &&
      !texts.some((t) => /^--(add|unset|replace|edit|rename|remove|file|blob|system|global)/.test(t) || t === '-e' || t === '-f')
    )
      return OK;
    return no(`git config ${texts.join(' ')} is not a plain read of the configuration`);
  }
  return no(
    `git ${sub} is not one of the read-only git commands (status, diff, log, show, branch --list, rev-parse, ls-files, blame, grep, …)`,
  );
};

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
