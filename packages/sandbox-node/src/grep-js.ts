/**
 * The JavaScript engine of grep: walks held folder descriptors (honoring ignore files), reads
 * each file through its folder's descriptor, and matches lines in a worker thread that is
 * terminated at the time bound or on abort.
 */
import type { GrepMatch, GrepResult } from '@aibuddy/sandbox';
import { SandboxAbortedError, SandboxArgumentError } from '@aibuddy/sandbox';
import { closeFd } from './fd-path.js';
import { JS_GREP_MAX_FILE_BYTES, sortMatches, stoppedNote, toMatches } from './grep-shared.js';
import type { GrepLimits, GrepSettings } from './grep-shared.js';
import type { GrepTarget } from './grep-target.js';
import { cannotBacktrack, inlineMatcher, RegexWorker, WorkerStopped, type LineMatcher } from './grep-worker.js';
import { IGNORE_FILES, IgnoreRules, MAX_IGNORE_FILE_BYTES, parseIgnoreFile } from './ignore-rules.js';
import { readRegularAt } from './open-regular.js';
import type { Root } from './paths.js';
import { BINARY_SNIFF_BYTES } from './read-file.js';
import { openDirectory } from './resolve-at.js';
import { walkFiles } from './walk.js';

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
export async function grepWithJs(
  root: Root,
  pattern: string,
  target: GrepTarget,
  s: GrepSettings,
  limits: GrepLimits,
): Promise<GrepResult> {
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
