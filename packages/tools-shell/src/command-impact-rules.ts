/**
 * The default descriptive impact rules: what well-known destructive commands (recursive deletes,
 * history-losing git commands, publishing, raw disk writes, recursive permission changes,
 * download-and-run) will do, in words a person can judge. Rules only describe; whether a command
 * needs confirmation is decided by `classifyCommand`.
 */
import type { CommandImpactRule } from './command-impact.js';
import { basename, effectiveArgv } from './effective-argv.js';
import { parseShellCommand } from './parse-shell.js';

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'ash', 'busybox']);
const INTERPRETERS = new Set([...SHELLS, 'python', 'python3', 'perl', 'ruby', 'node', 'php', 'pwsh', 'powershell']);
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'httpie']);

/** Targets that reach far beyond one project folder. */
function isBroadTarget(target: string): boolean {
  const t = target.replace(/\/+$/, '') || '/';
  return (
    t === '/' ||
    t === '.' ||
    t === '..' ||
    t === '~' ||
    t === '*' ||
    t === '.*' ||
    t === '$HOME' ||
    t === '${HOME}' ||
    t.startsWith('/') ||
    t.startsWith('~') ||
    t.startsWith('../') ||
    t.startsWith('$HOME') ||
    t.startsWith('${HOME}') ||
    t === './*' ||
    (t.includes('/*') && t.split('/').length <= 2)
  );
}

/** Splits short option clusters (`-rf` → `r`, `f`) and returns the set of flags, plus non-option operands. */
function splitArgs(args: readonly string[]): { flags: Set<string>; long: Set<string>; operands: string[] } {
  const flags = new Set<string>();
  const long = new Set<string>();
  const operands: string[] = [];
  let endOfOptions = false;
  for (const arg of args) {
    if (endOfOptions || arg === '-' || !arg.startsWith('-')) {
      operands.push(arg);
      continue;
    }
    if (arg === '--') {
      endOfOptions = true;
      continue;
    }
    if (arg.startsWith('--')) {
      long.add(arg.split('=')[0]!);
      continue;
    }
    for (const ch of arg.slice(1)) flags.add(ch);
  }
  return { flags, long, operands };
}

function list(values: readonly string[]): string {
  return values.length === 0 ? '(none given)' : values.join(' ');
}

const rmRule: CommandImpactRule = ({ program, args, elevated }) => {
  if (program !== 'rm' && program !== 'rmdir' && program !== 'unlink' && program !== 'shred' && program !== 'srm')
    return undefined;
  const { flags, long, operands } = splitArgs(args);
  // GNU accepts any unambiguous prefix: `--rec` is `--recursive`.
  const recursive = flags.has('r') || flags.has('R') || [...long].some((l) => l.length > 2 && '--recursive'.startsWith(l));
  const force = flags.has('f') || [...long].some((l) => l.length > 2 && '--force'.startsWith(l));
  const broad = operands.some(isBroadTarget);
  return {
    target: list(operands),
    scope: broad || elevated ? 'outside the project folder or the whole workspace' : 'workspace',
    impact: `${recursive ? 'Recursively deletes' : 'Deletes'} ${list(operands)}${force ? ' without prompting' : ''}${elevated ? ' as root' : ''}; deleted files cannot be restored from here.`,
  };
};

const findDeleteRule: CommandImpactRule = ({ program, args }) => {
  if (program !== 'find') return undefined;
  const deletes =
    args.includes('-delete') || args.some((a, i) => (a === '-exec' || a === '-execdir') && basename(args[i + 1] ?? '') === 'rm');
  if (!deletes) return undefined;
  const roots = args.filter((a, i) => !a.startsWith('-') && (i === 0 || !args[i - 1]!.startsWith('-'))).slice(0, 1);
  return {
    target: list(roots),
    scope: roots.some(isBroadTarget) ? 'outside the project folder or the whole workspace' : 'workspace',
    impact: `Deletes every file under ${list(roots)} that matches the find expression; deleted files cannot be restored from here.`,
  };
};

/** Finds the git subcommand after global options (`git -C dir -c k=v push`). */
function gitSubcommand(args: readonly string[]): { sub: string | undefined; rest: string[] } {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) {
    const option = args[i]!;
    i +=
      option === '-C' || option === '-c' || option === '--git-dir' || option === '--work-tree' || option === '--namespace'
        ? 2
        : 1;
  }
  return { sub: args[i], rest: args.slice(i + 1) };
}

const gitRule: CommandImpactRule = ({ program, args }) => {
  if (program !== 'git') return undefined;
  const { sub, rest } = gitSubcommand(args);
  const { flags, long, operands } = splitArgs(rest);
  if (sub === 'push') {
    const force =
      flags.has('f') ||
      long.has('--force') ||
      long.has('--force-with-lease') ||
      long.has('--mirror') ||
      operands.some((o, i) => i > 0 && o.startsWith('+'));
    const deletes = flags.has('d') || long.has('--delete') || operands.some((o, i) => i > 0 && o.startsWith(':'));
    const remote = operands[0] ?? 'the default remote';
    const refs = operands.slice(1);
    return {
      target: `${remote}${refs.length > 0 ? ` ${refs.join(' ')}` : ''}`,
      scope: 'remote repository (shared with others)',
      impact: force
        ? `Force-pushes to ${remote}: commits on the remote that are not in the local branch are overwritten and lost for everyone.`
        : deletes
          ? `Deletes ${refs.join(' ') || 'refs'} on ${remote} for everyone.`
          : `Publishes local commits to ${remote}; others see them and they are hard to take back.`,
    };
  }
  if (sub === 'reset' && long.has('--hard')) {
    return {
      target: operands[0] ?? 'HEAD',
      scope: 'working tree and index of this repository',
      impact: 'Discards every uncommitted change in tracked files; they cannot be recovered.',
    };
  }
  if (sub === 'clean' && (flags.has('f') || long.has('--force'))) {
    return {
      target: operands.length > 0 ? operands.join(' ') : 'the whole working tree',
      scope: 'untracked files of this repository',
      impact: `Deletes untracked files${flags.has('x') ? ' including ignored ones (build output, .env files)' : ''}${flags.has('d') ? ' and directories' : ''}; they were never committed and cannot be recovered.`,
    };
  }
  if (
    (sub === 'checkout' || sub === 'restore') &&
    (operands.includes('.') || rest.includes('--')) &&
    !flags.has('b') &&
    !flags.has('B')
  ) {
    const paths = rest.includes('--') ? rest.slice(rest.indexOf('--') + 1) : operands;
    if (paths.length === 0) return undefined;
    return {
      target: paths.join(' '),
      scope: 'working tree of this repository',
      impact: `Overwrites uncommitted changes in ${paths.join(' ')} with the committed version; the changes cannot be recovered.`,
    };
  }
  if ((sub === 'checkout' || sub === 'switch') && (flags.has('f') || long.has('--force') || long.has('--discard-changes'))) {
    return {
      target: operands.join(' ') || 'the working tree',
      scope: 'working tree of this repository',
      impact: 'Switches with --force: uncommitted changes in tracked files are overwritten and cannot be recovered.',
    };
  }
  if (sub === 'branch' && (flags.has('D') || (flags.has('d') && (flags.has('f') || long.has('--force'))))) {
    return {
      target: operands.join(' ') || '(branch)',
      scope: 'local repository',
      impact: `Force-deletes branch ${operands.join(' ')} even if it is not merged; its commits may be lost.`,
    };
  }
  if (sub === 'stash' && (rest[0] === 'clear' || rest[0] === 'drop')) {
    return {
      target: rest.slice(1).join(' ') || 'stash',
      scope: 'local repository',
      impact: 'Deletes stashed changes; they are hard to recover.',
    };
  }
  return undefined;
};

const publishRule: CommandImpactRule = (context) => {
  let { program, args } = context;
  // `npx npm publish`, `pnpm dlx …`, `pnpm -r publish`: look through runners and global options.
  if ((program === 'npx' || program === 'pnpx' || program === 'bunx') && args[0] !== undefined) {
    program = basename(args.find((a) => !a.startsWith('-')) ?? '');
    args = args.slice(args.findIndex((a) => !a.startsWith('-')) + 1);
  }
  if (program === 'pnpm' || program === 'npm' || program === 'yarn' || program === 'bun')
    args = args.filter((a) => !a.startsWith('-'));
  const first = args[0];
  let registry: string | undefined;
  if (
    (program === 'npm' || program === 'pnpm' || program === 'bun') &&
    (first === 'publish' || first === 'unpublish' || first === 'deprecate')
  )
    registry = 'the npm registry';
  else if (program === 'yarn' && (first === 'publish' || (first === 'npm' && args[1] === 'publish')))
    registry = 'the npm registry';
  else if (program === 'npx' && first !== undefined && /^(np|semantic-release|lerna|changeset)$/.test(first))
    registry = 'a package registry';
  else if ((program === 'lerna' || program === 'changeset') && first === 'publish') registry = 'the npm registry';
  else if (program === 'cargo' && (first === 'publish' || first === 'yank')) registry = 'crates.io';
  else if (program === 'twine' && first === 'upload') registry = 'PyPI';
  else if ((program === 'python' || program === 'python3') && args[0] === '-m' && args[1] === 'twine' && args[2] === 'upload')
    registry = 'PyPI';
  else if ((program === 'poetry' || program === 'flit' || program === 'hatch' || program === 'uv') && first === 'publish')
    registry = 'PyPI';
  else if (program === 'gem' && (first === 'push' || first === 'yank')) registry = 'RubyGems';
  else if (program === 'docker' && first === 'push') registry = 'a container registry';
  else if (program === 'gh' && first === 'release' && args[1] === 'create') registry = 'GitHub releases';
  if (!registry) return undefined;
  return {
    target:
      args
        .filter((a) => !a.startsWith('-'))
        .slice(1)
        .join(' ') || 'the package in the current folder',
    scope: `public registry (${registry})`,
    impact: `Publishes to ${registry}: a released version is visible to everyone and usually cannot be replaced or fully withdrawn.`,
  };
};

const diskRule: CommandImpactRule = ({ program, args, command }) => {
  if (program === 'dd') {
    const output = args.find((a) => a.startsWith('of='));
    if (!output) return undefined;
    const target = output.slice(3);
    return {
      target,
      scope: target.startsWith('/dev/') ? 'a disk or device of the machine' : 'file system',
      impact: `Overwrites ${target} block by block; whatever was there is destroyed.`,
    };
  }
  if (
    program.startsWith('mkfs') ||
    program === 'wipefs' ||
    program === 'fdisk' ||
    program === 'sfdisk' ||
    program === 'parted' ||
    program === 'shred'
  ) {
    const operands = splitArgs(args).operands;
    return {
      target: list(operands),
      scope: 'a disk or device of the machine',
      impact: `${program} destroys the data on ${list(operands)}.`,
    };
  }
  const device = command.redirects.find((r) => /^\/dev\/(sd|nvme|hd|vd|xvd|disk|mmcblk)/.test(r));
  if (device) {
    return {
      target: device,
      scope: 'a disk or device of the machine',
      impact: `Writes directly to ${device}, destroying the data on it.`,
    };
  }
  return undefined;
};

const permissionsRule: CommandImpactRule = ({ program, args, elevated }) => {
  if (program !== 'chmod' && program !== 'chown' && program !== 'chgrp') return undefined;
  const { flags, long, operands } = splitArgs(args);
  if (!flags.has('R') && !long.has('--recursive')) return undefined;
  const targets = operands.slice(1);
  if (!targets.some(isBroadTarget) && !elevated) return undefined;
  return {
    target: list(targets),
    scope: 'outside the project folder or the whole workspace',
    impact: `Recursively changes ${program === 'chmod' ? 'permissions' : 'ownership'} of everything under ${list(targets)}; the previous settings are not recorded and can break programs or expose files.`,
  };
};

function isShellProgram(name: string): boolean {
  return INTERPRETERS.has(name) || /^python\d/.test(name);
}

const downloadAndRunRule: CommandImpactRule = ({ program, args, command, all }) => {
  if (!isShellProgram(program)) return undefined;
  // `curl … | sh`: a downloader earlier in the same pipeline feeds an interpreter.
  if (command.pipelineIndex > 0) {
    const feeder = all.find(
      (other) =>
        other.pipeline === command.pipeline &&
        other.pipelineIndex < command.pipelineIndex &&
        DOWNLOADERS.has(basename(effectiveArgv(other.words).argv[0] ?? '')),
    );
    if (feeder) {
      const url =
        effectiveArgv(feeder.words)
          .argv.slice(1)
          .find((a) => /^https?:|^[\w.-]+\.[a-z]{2,}\//i.test(a)) ?? 'a downloaded script';
      return {
        target: url,
        scope: "the whole machine (code from the network runs with the agent's rights)",
        impact: `Downloads ${url} and runs it with ${program} without anyone reading it first.`,
      };
    }
  }
  // `sh -c "$(curl …)"`, `bash <(wget …)`.
  const fetched = command.substitutions.find((sub) =>
    parseShellCommand(sub).some((inner) => DOWNLOADERS.has(basename(effectiveArgv(inner.words).argv[0] ?? ''))),
  );
  if (fetched !== undefined && args.length > 0) {
    return {
      target: fetched.trim(),
      scope: "the whole machine (code from the network runs with the agent's rights)",
      impact: `Downloads a script (${fetched.trim()}) and runs it with ${program} without anyone reading it first.`,
    };
  }
  return undefined;
};

/**
 * Descriptions of well-known destructive commands (recursive deletes, `git push` / `reset --hard` /
 * `clean -f` and other history-losing git commands, package publishing, raw disk writes, recursive
 * permission changes, download-and-run). They only DESCRIBE what a command that is not proven
 * harmless will do; whether it needs confirmation is decided by `classifyCommand`.
 */
export const DEFAULT_COMMAND_IMPACT_RULES: readonly CommandImpactRule[] = [
  rmRule,
  findDeleteRule,
  gitRule,
  publishRule,
  diskRule,
  permissionsRule,
  downloadAndRunRule,
];
