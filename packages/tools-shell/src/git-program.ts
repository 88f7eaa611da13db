/**
 * `git`: harmless only for read-only subcommands with read-only options, and only with global
 * options that cannot make git run a program or read another configuration.
 */
import { checkOptions, no, OK } from './program-checks.js';
import type { DangerousOptions, ProgramChecker, Verdict } from './program-checks.js';

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

export const git: ProgramChecker = (check) => {
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
