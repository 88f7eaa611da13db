import { spawn, spawnSync } from 'node:child_process';
import type { GrepMatch, GrepOptions, GrepResult } from '@aibuddy/sandbox';
import { SandboxAbortedError, SandboxArgumentError, SandboxNotFoundError } from '@aibuddy/sandbox';
import { compileGlob } from './glob-pattern.js';
import { cannotBacktrack, inlineMatcher, RegexWorker, WorkerStopped, type GrepLine, type LineMatcher } from './grep-worker.js';
import { IGNORE_FILES, IgnoreRules, MAX_IGNORE_FILE_BYTES, parseIgnoreFile } from './ignore-rules.js';
import { closeFd, DIR_FLAGS, fdPath, openFd } from './fd-path.js';
import { readRegularAt } from './open-regular.js';
import { checkSpelling, lexicalParts, type Root } from './paths.js';
import { locate, openDirectory, releaseLocated, type Located, type LocatedDir } from './resolve-at.js';
import { confinedRipgrep, type ConfinedRipgrep } from './ripgrep-confined.js';
import { BINARY_SNIFF_BYTES, MAX_LINE_CHARS } from './read-file.js';
import { walkFiles } from './walk.js';

/** Default cap on grep matches. */
export const DEFAULT_GREP_LIMIT = 1000;
/** Files larger than this are skipped by the JavaScript engine (ripgrep streams them). */
export const JS_GREP_MAX_FILE_BYTES = 16 * 1024 * 1024;

/** Limits of a grep run. */
export interface GrepLimits {
  /** Time bound; the search stops and reports `truncated`. */
  timeMs: number;
  /** Entry cap of the JavaScript engine's walk. */
  maxEntries: number;
  /** ripgrep binary, or false to force the JavaScript engine. */
  ripgrep: string | false;
  /** bubblewrap binary that confines ripgrep; without a working one the JavaScript engine is used. */
  bubblewrap: string;
}

let ripgrepProbe: Map<string, boolean> | undefined;

/** Whether the ripgrep binary runs (probed once per binary). */
export function ripgrepWorks(binary: string): boolean {
  ripgrepProbe ??= new Map();
  let ok = ripgrepProbe.get(binary);
  if (ok === undefined) {
    const probe = spawnSync(binary, ['--version'], { stdio: 'ignore', timeout: 5000 });
    ok = probe.status === 0;
    ripgrepProbe.set(binary, ok);
  }
  return ok;
}

function cut(text: string): string {
  return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}… [line cut]` : text;
}

/**
 * Builds matches from the lines printed for one file, in line order, the way ripgrep merges
 * context: a line is printed once — as a match when it matches, even inside another match's
 * context — and a context line between two matches belongs to the earlier one's `after`, never
 * also to the later one's `before`.
 */
export function toMatches(path: string, lines: readonly GrepLine[], context: number, out: GrepMatch[]): void {
  let claimed = 0; // highest line number already given to a match or its context
  lines.forEach((l, k) => {
    if (!l.match) return;
    const match: GrepMatch = { path, line: l.line, text: cut(l.text) };
    if (context > 0) {
      const before: { line: number; text: string }[] = [];
      for (let j = k - 1; j >= 0 && !lines[j]!.match && lines[j]!.line >= l.line - context && lines[j]!.line > claimed; j--) {
        before.unshift({ line: lines[j]!.line, text: cut(lines[j]!.text) });
      }
      const after: { line: number; text: string }[] = [];
      for (let j = k + 1; j < lines.length && !lines[j]!.match && lines[j]!.line <= l.line + context; j++) {
        after.push({ line: lines[j]!.line, text: cut(lines[j]!.text) });
      }
      match.before = before;
      match.after = after;
      claimed = after.length > 0 ? after[after.length - 1]!.line : l.line;
    } else claimed = l.line;
    out.push(match);
  });
}

function sortMatches(matches: GrepMatch[]): GrepMatch[] {
  return matches.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
}

/**
 * grep's `glob` filter, the same for both engines: `compileGlob`'s meaning, relative to `path`
 * (a pattern without `/` matches names at any depth); a leading `!` excludes instead.
 */
function globFilter(glob: string | undefined): ((relToTarget: string) => boolean) | undefined {
  if (glob === undefined) return undefined;
  const negate = glob.startsWith('!');
  const matcher = compileGlob(negate ? glob.slice(1) : glob);
  return (rel) => matcher.test(rel) !== negate;
}

/** A glob ripgrep may pre-filter with: one whose ripgrep meaning is the same or wider than ours. */
function passThroughGlob(glob: string | undefined): string | undefined {
  return glob !== undefined && !/[/{}[\]\\!]/.test(glob) ? glob : undefined;
}

function stoppedNote(timeMs: number): string {
  return `the search stopped at its time bound of ${timeMs} ms; the matches found until then are shown`;
}

/**
 * Searches file contents; ripgrep when it works (confined), else the JavaScript engine. Both
 * give the same results (see the package README, "grep semantics"): the glob filter relative to
 * `path`, `.gitignore` / `.ignore` / `.rgignore` inside the workspace honoured (with or without a
 * `.git` folder), hidden files and `node_modules` skipped, files over 16 MiB skipped, context merged
 * like ripgrep's, `\r` of CRLF lines stripped (and `$` matching before it), file names taken from
 * NUL-separated output so that a newline in a name cannot split it.
 */
export async function grepFiles(
  root: Root,
  pattern: string,
  options: GrepOptions | undefined,
  limits: GrepLimits,
): Promise<GrepResult> {
  if (typeof pattern !== 'string' || pattern === '')
    throw new SandboxArgumentError('grep: the pattern must be a non-empty string.');
  if (pattern.includes('\0')) throw new SandboxArgumentError('grep: the pattern contains a null byte.');
  const limit = options?.limit ?? DEFAULT_GREP_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new SandboxArgumentError('grep: limit must be a whole number of at least 1.');
  const context = options?.context ?? 0;
  if (!Number.isInteger(context) || context < 0 || context > 100) {
    throw new SandboxArgumentError('grep: context must be a whole number from 0 to 100.');
  }
  if (options?.glob !== undefined) checkSpelling(options.glob);
  const filter = globFilter(options?.glob);
  const settings: Settings = {
    limit,
    context,
    ignoreCase: options?.ignoreCase === true,
    glob: options?.glob,
    filter,
    signal: options?.signal,
  };
  const target = await locateTarget(root, options?.path ?? '.');
  try {
    // A single file is searched whatever the ignore files say (as ripgrep does for a path it is
    // given), but the glob filter applies to its name.
    if (target.kind === 'file' && filter && !filter(target.file.name)) {
      return { matches: [], truncated: false, engine: limits.ripgrep === false ? 'javascript' : 'ripgrep' };
    }
    const rg =
      limits.ripgrep !== false && ripgrepWorks(limits.ripgrep)
        ? confinedRipgrep(limits.ripgrep, limits.bubblewrap, root.real)
        : undefined;
    if (rg !== undefined && typeof rg !== 'string') {
      return await grepWithRipgrep(root, rg, pattern, target.physical, settings, limits.timeMs);
    }
    return await grepWithJs(root, pattern, target, settings, limits);
  } finally {
    if (target.kind === 'dir') await closeFd(target.dir.fd);
    else await releaseLocated(target.file);
  }
}

type Target = { kind: 'dir'; dir: LocatedDir; physical: string } | { kind: 'file'; file: Located; physical: string };

/** Opens the search folder (or locates the single file) relative to the held root. */
async function locateTarget(root: Root, path: string): Promise<Target> {
  if (lexicalParts(root, path).parts.length === 0) {
    const dir = await openDirectory(root, path, 'grep');
    return { kind: 'dir', dir, physical: dir.physical };
  }
  const located = await locate(root, path, { create: false, operation: 'grep' });
  if (located?.stat === undefined) {
    if (located) await releaseLocated(located);
    throw new SandboxNotFoundError(`grep: "${located?.rel ?? path}" does not exist in the workspace.`, {
      path: located?.rel ?? path,
    });
  }
  if (!located.stat.isDirectory()) return { kind: 'file', file: located, physical: located.physical };
  try {
    const fd = await openFd(fdPath(located.parentFd, located.name), DIR_FLAGS);
    return { kind: 'dir', dir: { rel: located.rel, physical: located.physical, fd }, physical: located.physical };
  } catch (error) {
    // Swapped for a symlink or a file since the lstat: treat like a path that changed under us.
    throw new SandboxNotFoundError(`grep: "${located.rel}" changed while it was being opened; try again.`, {
      path: located.rel,
      cause: error,
    });
  } finally {
    await releaseLocated(located);
  }
}

interface Settings {
  limit: number;
  context: number;
  ignoreCase: boolean;
  glob: string | undefined;
  filter: ((relToTarget: string) => boolean) | undefined;
  signal: AbortSignal | undefined;
}

const NUL = 0x00;
const NL = 0x0a;

/**
 * Runs ripgrep confined to the workspace (see `confinedRipgrep`): it walks by path strings, which
 * a racing process could redirect on the host, so it runs where nothing outside exists. Its
 * output is read as bytes: `PATH \0 LINE (':' match | '-' context) TEXT \n` per line, with no
 * context separators, so a file name is everything up to the NUL — a newline in it cannot split
 * it — and TEXT (which cannot hold a newline) ends at the next `\n`.
 */
function grepWithRipgrep(
  root: Root,
  rg: ConfinedRipgrep,
  pattern: string,
  rel: string,
  s: Settings,
  timeMs: number,
): Promise<GrepResult> {
  const args = ['--no-config', '--null', '--line-number', '--with-filename', '--no-heading', '--color=never', '--no-messages'];
  args.push('--no-context-separator', '--crlf', '--no-require-git', '--no-ignore-global', '--no-ignore-exclude');
  args.push(`--max-filesize=${JS_GREP_MAX_FILE_BYTES}`, `--max-columns=${MAX_LINE_CHARS}`, '--max-columns-preview');
  if (s.ignoreCase) args.push('--ignore-case');
  if (s.context > 0) args.push(`--context=${s.context}`);
  args.push('--glob=!node_modules');
  // The glob filter is ours (applied to the output below); ripgrep gets it only when its meaning is
  // the same or wider, to skip files early.
  const early = passThroughGlob(s.glob);
  if (early !== undefined) args.push(`--glob=${early}`);
  // The pattern always comes after `--`, so it can never be read as an option.
  args.push('--', pattern, rel);
  const under = rel === '.' ? '' : `${rel}/`;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(rg.file, [...rg.prefix, ...args], {
      cwd: root.real,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: rg.env,
      detached: true,
    });
    const matches: GrepMatch[] = [];
    let count = 0;
    let truncated = false;
    let stopped: string | undefined;
    let pending: Buffer = Buffer.alloc(0);
    let blockPath: string | undefined;
    let blockKept = true;
    let block: GrepLine[] = [];
    let stderr = '';
    let settled = false;
    const flush = () => {
      if (blockPath !== undefined && blockKept) toMatches(blockPath, block, s.context, matches);
      block = [];
      blockPath = undefined;
    };
    const stop = () => {
      child.stdout.destroy();
      try {
        // bubblewrap and everything in its PID namespace: its own process group (detached).
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      truncated = true;
      stopped = stoppedNote(timeMs);
      stop();
    }, timeMs);
    const onAbort = () => {
      stop();
      // Settle now: the abort must not wait for the pipes to close.
      finish(new SandboxAbortedError('grep was aborted.', { cause: s.signal?.reason }));
    };
    s.signal?.addEventListener('abort', onAbort, { once: true });
    const handleRecord = (pathBytes: Buffer, rest: Buffer) => {
      const m = /^(\d+)([:-])/.exec(rest.subarray(0, 24).toString('latin1'));
      if (!m) return;
      let path = pathBytes.toString('utf8');
      if (path.startsWith('./')) path = path.slice(2);
      const isMatch = m[2] === ':';
      if (path !== blockPath) {
        flush();
        blockPath = path;
        const relToTarget = under !== '' && path.startsWith(under) ? path.slice(under.length) : path;
        blockKept = s.filter === undefined || s.filter(relToTarget);
      }
      if (!blockKept) return;
      if (isMatch) {
        if (count >= s.limit) {
          truncated = true;
          stop();
          return;
        }
        count++;
      }
      let text = rest.subarray(m[0].length).toString('utf8');
      if (text.endsWith('\r')) text = text.slice(0, -1);
      block.push({ line: Number(m[1]), text, match: isMatch });
    };
    /** Parses whole records from `pending`; a partial one waits for more bytes. */
    const parse = (final: boolean) => {
      let pos = 0;
      while (pos < pending.length && !truncated) {
        const nul = pending.indexOf(NUL, pos);
        if (nul === -1) break;
        let nl = pending.indexOf(NL, nul + 1);
        if (nl === -1) {
          if (!final) break;
          nl = pending.length;
        }
        handleRecord(pending.subarray(pos, nul), pending.subarray(nul + 1, nl));
        pos = nl + 1;
      }
      pending = pending.subarray(Math.min(pos, pending.length));
    };
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      parse(false);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      s.signal?.removeEventListener('abort', onAbort);
      if (error) return reject(error);
      resolvePromise({ matches: sortMatches(matches), truncated, engine: 'ripgrep', ...(stopped ? { stopped } : {}) });
    };
    child.on('error', (error) => finish(error));
    child.on('close', (code) => {
      if (s.signal?.aborted) return finish(new SandboxAbortedError('grep was aborted.', { cause: s.signal.reason }));
      if (!truncated) parse(true);
      flush();
      if (code === 2 && matches.length === 0 && !truncated && /error/i.test(stderr)) {
        return finish(new SandboxArgumentError(`grep: ripgrep refused the search: ${stderr.trim().slice(0, 1000)}`));
      }
      finish();
    });
  });
}

/** Reads the ignore files of one held folder into `rules`, under its workspace-relative key. */
async function loadIgnoreFiles(dirFd: number, key: string, rules: IgnoreRules): Promise<void> {
  for (const name of IGNORE_FILES) {
    const bytes = await readRegularAt(dirFd, name, MAX_IGNORE_FILE_BYTES);
    if (bytes !== undefined) rules.add(key, parseIgnoreFile(bytes.toString('utf8')));
  }
}

/**
 * The JavaScript engine: the walk and the reads stay on the main thread with held descriptors
 * (never blocking: every step is asynchronous), and the regular expression runs in a worker
 * thread that is terminated at the time bound or on abort, so no pattern can stall the host.
 */
async function grepWithJs(root: Root, pattern: string, target: Target, s: Settings, limits: GrepLimits): Promise<GrepResult> {
  let flags: string;
  try {
    new RegExp(pattern, s.ignoreCase ? 'iu' : 'u');
    flags = s.ignoreCase ? 'iu' : 'u';
  } catch {
    try {
      new RegExp(pattern, s.ignoreCase ? 'i' : '');
      flags = s.ignoreCase ? 'i' : '';
    } catch (error) {
      throw new SandboxArgumentError(`grep: invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  const matches: GrepMatch[] = [];
  let count = 0;
  let truncated = false;
  let stopped: string | undefined;
  const worker: LineMatcher = cannotBacktrack(pattern)
    ? inlineMatcher(pattern, flags, s.context)
    : new RegexWorker(pattern, flags, s.context);
  const timer = setTimeout(() => {
    stopped = stoppedNote(limits.timeMs);
    void worker.terminate();
  }, limits.timeMs);
  const onAbort = () => void worker.terminate();
  s.signal?.addEventListener('abort', onAbort, { once: true });
  // The file's bytes come from a descriptor opened inside its held folder (the walk's, or the
  // located parent's): never by a path string.
  const searchFile = async (dirFd: number, name: string, shown: string): Promise<boolean> => {
    const bytes = await readRegularAt(dirFd, name, JS_GREP_MAX_FILE_BYTES);
    if (bytes === undefined) return true;
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return true;
    const reply = await worker.search(bytes, s.limit - count);
    count += reply.matches;
    toMatches(shown, reply.lines, s.context, matches);
    if (reply.more || count >= s.limit) {
      // At the limit: one more match anywhere means truncated; a file with none is not proof,
      // so the limit itself is reported as reached only when a match past it was seen.
      if (reply.more) truncated = true;
      return !reply.more;
    }
    return true;
  };
  try {
    if (target.kind === 'file') {
      await searchFile(target.file.parentFd, target.file.name, target.file.physical);
      return { matches: sortMatches(matches), truncated, engine: 'javascript' };
    }
    const base = target.physical === '.' ? '' : target.physical;
    const under = base === '' ? '' : `${base}/`;
    const ignore = new IgnoreRules();
    // Ignore files of the folders above the target, from the root down (ripgrep reads its parents' too).
    const parts = base === '' ? [] : base.split('/');
    for (let i = 0; i < parts.length; i++) {
      const key = parts.slice(0, i).join('/');
      const dir = await openDirectory(root, key === '' ? '.' : key, 'grep').catch(() => undefined);
      if (dir === undefined) continue;
      try {
        await loadIgnoreFiles(dir.fd, key, ignore);
      } finally {
        await closeFd(dir.fd);
      }
    }
    const { stopped: walkStopped } = await walkFiles(
      target.dir.fd,
      {
        skipHidden: true,
        skipNodeModules: true,
        deadline: Date.now() + limits.timeMs,
        maxEntries: limits.maxEntries,
        signal: s.signal,
        operation: 'grep',
        onFolder: (fd, rel) => loadIgnoreFiles(fd, under + rel === '' ? '' : (under + rel).replace(/\/$/, ''), ignore),
        skip: (rel, isDir) => !ignore.empty && ignore.ignored(under + rel, isDir),
      },
      (entry) => (s.filter && !s.filter(entry.rel) ? true : searchFile(entry.dirFd, entry.name, under + entry.rel)),
    );
    if (walkStopped) {
      truncated = true;
      stopped ??= stoppedNote(limits.timeMs);
    }
    return { matches: sortMatches(matches), truncated, engine: 'javascript', ...(stopped ? { stopped } : {}) };
  } catch (error) {
    if (s.signal?.aborted && (SandboxAbortedError.isInstance(error) || error instanceof WorkerStopped)) {
      // Settle at once: the worker's end is not waited for.
      void worker.terminate();
      throw SandboxAbortedError.isInstance(error)
        ? error
        : new SandboxAbortedError('grep was aborted.', { cause: s.signal.reason });
    }
    if (error instanceof WorkerStopped || (error as Error)?.name === 'WorkerStopped') {
      return {
        matches: sortMatches(matches),
        truncated: true,
        engine: 'javascript',
        stopped: stopped ?? stoppedNote(limits.timeMs),
      };
    }
    throw error;
  } finally {
    clearTimeout(timer);
    s.signal?.removeEventListener('abort', onAbort);
    // On a normal end its threads and descriptors are given back before the result is.
    if (!s.signal?.aborted) await worker.terminate();
  }
}
