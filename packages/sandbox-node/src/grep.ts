import { spawn, spawnSync } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { GrepMatch, GrepOptions, GrepResult } from '@aibuddy/sandbox';
import { SandboxAbortedError, SandboxArgumentError, SandboxNotFoundError } from '@aibuddy/sandbox';
import { globToRegExp } from './glob-pattern.js';
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

interface Line {
  line: number;
  text: string;
  match: boolean;
}

function cut(text: string): string {
  return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}… [line cut]` : text;
}

/** Builds matches with their context from the ordered lines of one file block. */
function toMatches(path: string, lines: Line[], context: number, out: GrepMatch[]): void {
  lines.forEach((l, k) => {
    if (!l.match) return;
    const match: GrepMatch = { path, line: l.line, text: cut(l.text) };
    if (context > 0) {
      const before: { line: number; text: string }[] = [];
      for (let j = k - 1; j >= 0 && lines[j]!.line >= l.line - context; j--) before.unshift({ line: lines[j]!.line, text: cut(lines[j]!.text) });
      const after: { line: number; text: string }[] = [];
      for (let j = k + 1; j < lines.length && lines[j]!.line <= l.line + context; j++) after.push({ line: lines[j]!.line, text: cut(lines[j]!.text) });
      match.before = before;
      match.after = after;
    }
    out.push(match);
  });
}

function sortMatches(matches: GrepMatch[]): GrepMatch[] {
  return matches.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
}

/** Searches file contents; ripgrep when it works, else the JavaScript engine. */
export async function grepFiles(root: Root, pattern: string, options: GrepOptions | undefined, limits: GrepLimits): Promise<GrepResult> {
  if (typeof pattern !== 'string' || pattern === '') throw new SandboxArgumentError('grep: the pattern must be a non-empty string.');
  if (pattern.includes('\0')) throw new SandboxArgumentError('grep: the pattern contains a null byte.');
  const limit = options?.limit ?? DEFAULT_GREP_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new SandboxArgumentError('grep: limit must be a whole number of at least 1.');
  const context = options?.context ?? 0;
  if (!Number.isInteger(context) || context < 0 || context > 100) {
    throw new SandboxArgumentError('grep: context must be a whole number from 0 to 100.');
  }
  if (options?.glob !== undefined) checkSpelling(options.glob);
  const settings = { limit, context, ignoreCase: options?.ignoreCase === true, glob: options?.glob, signal: options?.signal };
  const target = await locateTarget(root, options?.path ?? '.');
  try {
    const rg = limits.ripgrep !== false && ripgrepWorks(limits.ripgrep) ? confinedRipgrep(limits.ripgrep, limits.bubblewrap, root.real) : undefined;
    if (rg !== undefined && typeof rg !== 'string') {
      return await grepWithRipgrep(root, rg, pattern, target.physical, settings, limits.timeMs);
    }
    return await grepWithJs(pattern, target, settings, limits);
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
    throw new SandboxNotFoundError(`grep: "${located?.rel ?? path}" does not exist in the workspace.`, { path: located?.rel ?? path });
  }
  if (!located.stat.isDirectory()) return { kind: 'file', file: located, physical: located.physical };
  try {
    const fd = await openFd(fdPath(located.parentFd, located.name), DIR_FLAGS);
    return { kind: 'dir', dir: { rel: located.rel, physical: located.physical, fd }, physical: located.physical };
  } catch (error) {
    // Swapped for a symlink or a file since the lstat: treat like a path that changed under us.
    throw new SandboxNotFoundError(`grep: "${located.rel}" changed while it was being opened; try again.`, { path: located.rel, cause: error });
  } finally {
    await releaseLocated(located);
  }
}

interface Settings {
  limit: number;
  context: number;
  ignoreCase: boolean;
  glob: string | undefined;
  signal: AbortSignal | undefined;
}

/**
 * Runs ripgrep confined to the workspace (see `confinedRipgrep`): it walks by path strings, which
 * a racing process could redirect on the host, so it runs where nothing outside exists.
 */
function grepWithRipgrep(root: Root, rg: ConfinedRipgrep, pattern: string, rel: string, s: Settings, timeMs: number): Promise<GrepResult> {
  const args = ['--no-config', '--null', '--line-number', '--with-filename', '--no-heading', '--color=never', '--no-messages'];
  args.push(`--max-columns=${MAX_LINE_CHARS}`, '--max-columns-preview');
  if (s.ignoreCase) args.push('--ignore-case');
  if (s.context > 0) args.push(`--context=${s.context}`);
  if (s.glob !== undefined) args.push(`--glob=${s.glob}`);
  // The pattern always comes after `--`, so it can never be read as an option.
  args.push('--', pattern, rel);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(rg.file, [...rg.prefix, ...args], { cwd: root.real, stdio: ['ignore', 'pipe', 'pipe'], env: rg.env, detached: true });
    const decoder = new StringDecoder('utf8');
    const matches: GrepMatch[] = [];
    let count = 0;
    let truncated = false;
    let pending = '';
    let blockPath: string | undefined;
    let block: Line[] = [];
    let stderr = '';
    let settled = false;
    const flush = () => {
      if (blockPath !== undefined) toMatches(blockPath, block, s.context, matches);
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
      stop();
    }, timeMs);
    const onAbort = () => {
      stop();
      // Settle now: the abort must not wait for the pipes to close.
      finish(new SandboxAbortedError('grep was aborted.', { cause: s.signal?.reason }));
    };
    s.signal?.addEventListener('abort', onAbort, { once: true });
    const handleLine = (raw: string) => {
      if (raw === '--') return flush();
      const nul = raw.indexOf('\0');
      if (nul === -1) return;
      let path = raw.slice(0, nul);
      if (path.startsWith('./')) path = path.slice(2);
      const m = /^(\d+)([:-])/.exec(raw.slice(nul + 1, nul + 24));
      if (!m) return;
      const isMatch = m[2] === ':';
      if (path !== blockPath) {
        flush();
        blockPath = path;
      }
      if (isMatch) {
        if (count >= s.limit) {
          truncated = true;
          stop();
          return;
        }
        count++;
      }
      block.push({ line: Number(m[1]), text: raw.slice(nul + 1 + m[0].length), match: isMatch });
    };
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) return;
      const text = pending + decoder.write(chunk);
      const lines = text.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        handleLine(line);
        if (truncated) break;
      }
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
      resolvePromise({ matches: sortMatches(matches), truncated, engine: 'ripgrep' });
    };
    child.on('error', (error) => finish(error));
    child.on('close', (code) => {
      if (s.signal?.aborted) return finish(new SandboxAbortedError('grep was aborted.', { cause: s.signal.reason }));
      if (!truncated && pending !== '') handleLine(pending);
      flush();
      if (code === 2 && matches.length === 0 && !truncated && /error/i.test(stderr)) {
        return finish(new SandboxArgumentError(`grep: ripgrep refused the search: ${stderr.trim().slice(0, 1000)}`));
      }
      finish();
    });
  });
}

async function grepWithJs(pattern: string, target: Target, s: Settings, limits: GrepLimits): Promise<GrepResult> {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, s.ignoreCase ? 'iu' : 'u');
  } catch {
    try {
      regex = new RegExp(pattern, s.ignoreCase ? 'i' : '');
    } catch (error) {
      throw new SandboxArgumentError(`grep: invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}`, { cause: error });
    }
  }
  const globRe = s.glob === undefined ? undefined : globToRegExp(s.glob);
  const matches: GrepMatch[] = [];
  let truncated = false;
  // The file's bytes come from a descriptor opened inside its held folder (the walk's, or the
  // located parent's): never by a path string.
  const searchFile = async (dirFd: number, name: string, rel: string, shown: string): Promise<boolean> => {
    if (globRe) {
      const subject = s.glob!.includes('/') ? rel : rel.slice(rel.lastIndexOf('/') + 1);
      if (!globRe.test(subject)) return true;
    }
    const bytes = await readRegularAt(dirFd, name, JS_GREP_MAX_FILE_BYTES);
    if (bytes === undefined) return true;
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return true;
    const lines = bytes.toString('utf8').split('\n');
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    const block: Line[] = [];
    let lastKept = -1;
    for (let k = 0; k < lines.length; k++) {
      const text = lines[k]!.endsWith('\r') ? lines[k]!.slice(0, -1) : lines[k]!;
      if (!regex.test(text)) continue;
      if (matches.length + block.filter((l) => l.match).length >= s.limit) {
        truncated = true;
        break;
      }
      for (let j = Math.max(lastKept + 1, k - s.context); j < k; j++) block.push({ line: j + 1, text: lines[j]!.replace(/\r$/, ''), match: false });
      block.push({ line: k + 1, text, match: true });
      lastKept = k;
      // After-context is added lazily: push following lines up to `context`, skipping ones that will match.
      for (let j = k + 1; j <= Math.min(lines.length - 1, k + s.context); j++) {
        const t = lines[j]!.replace(/\r$/, '');
        if (regex.test(t)) break;
        block.push({ line: j + 1, text: t, match: false });
        lastKept = j;
      }
    }
    toMatches(shown, block, s.context, matches);
    return !truncated;
  };
  const deadline = Date.now() + limits.timeMs;
  if (target.kind === 'file') {
    const { file } = target;
    await searchFile(file.parentFd, file.name, file.physical, file.physical);
    return { matches: sortMatches(matches), truncated, engine: 'javascript' };
  }
  const under = target.physical === '.' ? '' : `${target.physical}/`;
  const { stopped } = await walkFiles(
    target.dir.fd,
    { skipHidden: true, skipNodeModules: true, deadline, maxEntries: limits.maxEntries, signal: s.signal, operation: 'grep' },
    (entry) => (Date.now() > deadline ? ((truncated = true), false) : searchFile(entry.dirFd, entry.name, entry.rel, under + entry.rel)),
  );
  return { matches: sortMatches(matches), truncated: truncated || stopped, engine: 'javascript' };
}
