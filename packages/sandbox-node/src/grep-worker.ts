import { Worker } from 'node:worker_threads';

/** A line the JavaScript engine prints for a file: a match, or context around one. */
export interface GrepLine {
  /** 1-based line number. */
  line: number;
  /** The text, without its line ending (`\n` or `\r\n`). */
  text: string;
  /** True for a matching line. */
  match: boolean;
}

interface Request {
  id: number;
  bytes: Uint8Array;
  /** Matches still allowed before the search's limit. */
  remaining: number;
}

export interface Reply {
  id: number;
  lines: GrepLine[];
  matches: number;
  /** True when a match past `remaining` exists in the file. */
  more: boolean;
}

/**
 * Matches one file's lines against the regular expression and returns the matching lines and
 * their context, the way ripgrep prints them (a line is printed once, as a match when it matches,
 * even inside another match's context). At most `remaining` matches; `more` says a match past
 * them exists. Self-contained (no imports, no closures): the worker gets its source text.
 */
export function matchLines(regex: RegExp, bytes: Uint8Array, remaining: number, context: number): Omit<Reply, 'id'> {
  const lines: GrepLine[] = [];
  let matches = 0;
  let more = false;
  try {
    const all = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8').split('\n');
    if (all.length > 0 && all[all.length - 1] === '') all.pop();
    let printedUpTo = -1; // index of the last line printed
    let afterUntil = -1; // context after the last match runs to this index
    for (let i = 0; i < all.length; i++) {
      const raw = all[i]!;
      const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (regex.test(text)) {
        if (matches >= remaining) {
          // A match past the limit proves the result is cut; it is printed neither as match nor as context.
          more = true;
          break;
        }
        for (let j = Math.max(printedUpTo + 1, i - context); j < i; j++) {
          const t = all[j]!;
          lines.push({ line: j + 1, text: t.endsWith('\r') ? t.slice(0, -1) : t, match: false });
        }
        lines.push({ line: i + 1, text, match: true });
        printedUpTo = i;
        afterUntil = i + context;
        matches++;
      } else if (i <= afterUntil) {
        lines.push({ line: i + 1, text, match: false });
        printedUpTo = i;
      }
    }
  } catch {
    // An engine error on one file (a regex that overflows the stack): the file has no matches.
  }
  return { lines, matches, more };
}

/**
 * The worker's code. It runs in its own thread, so a catastrophic pattern such as `(a+)+$` only
 * ever blocks the worker, which the caller terminates at the deadline.
 */
function workerMain(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { parentPort, workerData } = require('node:worker_threads') as typeof import('node:worker_threads');
  const { source, flags, context } = workerData as { source: string; flags: string; context: number };
  const regex = new RegExp(source, flags);
  parentPort!.on('message', (request: Request) => {
    const reply: Reply = { id: request.id, ...matchLines(regex, request.bytes, request.remaining, context) };
    parentPort!.postMessage(reply);
  });
}

const WORKER_SOURCE = `const matchLines = ${matchLines.toString()};\n(${workerMain.toString()})();`;

/** Raised by `search` once the worker was terminated (deadline or abort). */
export class WorkerStopped extends Error {
  override readonly name = 'WorkerStopped';
}

/**
 * A regular-expression worker for one grep run. `search` sends a file's bytes and resolves with
 * its printed lines; `terminate` ends the thread at once, whatever it is doing, and rejects what
 * is pending with `WorkerStopped` — that is how the deadline and abort stay enforceable even
 * while a pattern backtracks forever.
 */
export class RegexWorker {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private stopped: Error | undefined;

  constructor(source: string, flags: string, context: number) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { source, flags, context },
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    this.worker.unref(); // never keeps the host alive
    this.worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      waiting?.resolve(reply);
    });
    const fail = (error: Error) => {
      this.stopped ??= error;
      for (const waiting of this.pending.values()) waiting.reject(this.stopped);
      this.pending.clear();
    };
    this.worker.on('error', (error) => fail(error));
    this.worker.on('exit', () => fail(new WorkerStopped('the regular-expression worker stopped')));
  }

  /** Matches one file's bytes; at most `remaining` matches. */
  search(bytes: Uint8Array, remaining: number): Promise<Reply> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, bytes, remaining } satisfies Request);
    });
  }

  /** Ends the thread now; pending searches reject with `WorkerStopped`. */
  async terminate(): Promise<void> {
    this.stopped ??= new WorkerStopped('the regular-expression worker was terminated');
    for (const waiting of this.pending.values()) waiting.reject(this.stopped);
    this.pending.clear();
    await this.worker.terminate();
  }
}

/** What the JavaScript engine matches with: a worker, or the main thread for patterns that cannot backtrack. */
export interface LineMatcher {
  /** Matches one file's bytes; at most `remaining` matches. */
  search(bytes: Uint8Array, remaining: number): Promise<Omit<Reply, 'id'>>;
  /** Ends it; resolves once its resources are given back. */
  terminate(): Promise<void>;
}

/**
 * Whether a pattern can run on the main thread: without quantifiers (`* + ? {`), alternation or
 * backreferences a regular expression cannot backtrack, so each line costs at most its length
 * times the pattern's. Most searches (`TODO`, `function foo\(`, `^import`) are like that and skip
 * the worker's start-up; anything else goes to the worker.
 */
export function cannotBacktrack(pattern: string): boolean {
  return !/[*+?{|]|\\[1-9]|\\k</.test(pattern);
}

/** Runs `matchLines` on the main thread (for patterns that cannot backtrack). */
export function inlineMatcher(source: string, flags: string, context: number): LineMatcher {
  const regex = new RegExp(source, flags);
  return {
    search: async (bytes, remaining) => matchLines(regex, bytes, remaining, context),
    terminate: async () => undefined,
  };
}
