/**
 * The ripgrep engine: runs ripgrep confined to the workspace and parses its NUL-separated output
 * into matches as it streams, stopping at the limit, the time bound or an abort.
 */
import { spawn, spawnSync } from 'node:child_process';
import type { GrepMatch, GrepResult } from '@aibuddy/sandbox';
import { SandboxAbortedError, SandboxArgumentError } from '@aibuddy/sandbox';
import { JS_GREP_MAX_FILE_BYTES, sortMatches, stoppedNote, toMatches } from './grep-shared.js';
import type { GrepSettings } from './grep-shared.js';
import type { GrepLine } from './grep-worker.js';
import type { Root } from './paths.js';
import { MAX_LINE_CHARS } from './read-file.js';
import type { ConfinedRipgrep } from './ripgrep-confined.js';

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

/** A glob ripgrep may pre-filter with: one whose ripgrep meaning is the same or wider than ours. */
function passThroughGlob(glob: string | undefined): string | undefined {
  return glob !== undefined && !/[/{}[\]\\!]/.test(glob) ? glob : undefined;
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
export function grepWithRipgrep(
  root: Root,
  rg: ConfinedRipgrep,
  pattern: string,
  rel: string,
  s: GrepSettings,
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
