/**
 * The processes of a stdio server's tree that left its process group (Linux).
 *
 * `close` ends a server's process group, but a process that makes a session of its own (`setsid`,
 * Node's `detached: true`: daemons, the browser a server launches, a double fork) leaves the group,
 * and once its parent exits its ancestry is gone too. What it keeps is the environment it inherited:
 * every stdio server is started with `AIBUDDY_MCP_TREE` holding a random mark, and the processes whose
 * environment (`/proc/<pid>/environ`, as they were exec'd) carries the mark are ended with the group.
 * Best effort by nature: a process that clears its environment before exec is not found, and neither
 * is one whose environment the host may not read (another user's, without root). Elsewhere than
 * Linux there is no `/proc` and only the group is ended.
 *
 * The sandbox's unconfined `exec` uses the same technique; each package keeps its own copy because
 * discovery depends on the registry alone (ARCHITECTURE.md's layering).
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

/** The environment variable that carries the marks of a server's tree. */
export const TREE_MARK_VARIABLE = 'AIBUDDY_MCP_TREE';

/** A new random mark for one server start. */
export function newTreeMark(): string {
  return randomBytes(12).toString('hex');
}

/**
 * The variable's value for a server: the marks it inherited (a host that is itself a server of
 * another host, whose close must find this tree too) followed by its own, comma-separated.
 */
export function treeMarkValue(inherited: string | undefined, mark: string): string {
  return inherited ? `${inherited},${mark}` : mark;
}

const PREFIX = Buffer.from(`${TREE_MARK_VARIABLE}=`);

/** The marks in an environ block (NUL-separated `NAME=value`), or undefined when it has none. */
function marksIn(environ: Buffer): string[] | undefined {
  let at = environ.indexOf(PREFIX);
  while (at > 0 && environ[at - 1] !== 0) at = environ.indexOf(PREFIX, at + 1);
  if (at < 0) return undefined;
  const start = at + PREFIX.length;
  const end = environ.indexOf(0, start);
  return environ.toString('latin1', start, end < 0 ? environ.length : end).split(',');
}

/**
 * Whether `pid`'s environment still carries `mark`: a pid reused since the pass does not. A zombie's
 * environment cannot be read (ESRCH), so a dead process never counts, in a pass or here.
 */
function carries(pid: number, mark: string): boolean {
  return marksOf(pid)?.includes(mark) === true;
}

/** The marks in `pid`'s environment; undefined when it has none, is gone, or is not ours to read. */
function marksOf(pid: number | string): string[] | undefined {
  try {
    return marksIn(readFileSync(`/proc/${pid}/environ`));
  } catch {
    return undefined;
  }
}

/** Every process with a mark, by mark: one pass over /proc (empty where there is none). */
function scanProc(): Map<string, number[]> {
  const byMark = new Map<string, number[]>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    // No /proc: not Linux.
  }
  for (const name of entries) {
    const pid = Number(name);
    if (!(pid > 0) || pid === process.pid) continue;
    for (const mark of marksOf(name) ?? []) {
      const pids = byMark.get(mark);
      if (pids) pids.push(pid);
      else byMark.set(mark, [pid]);
    }
  }
  return byMark;
}

// A pass reads every process's environment: ~17 ms with 650 processes, and a host with hundreds of
// servers closes them all at once. So passes are shared: every caller waiting at that moment gets the
// same one (always one that starts after it asked), and they start at most every MIN_SCAN_INTERVAL_MS.
const MIN_SCAN_INTERVAL_MS = 50;
let lastScanAt = Number.NEGATIVE_INFINITY;
let nextScan: Promise<Map<string, number[]>> | undefined;
let passes = 0;

/** How many passes over /proc this process made (for tests of the sharing). */
export function scanPasses(): number {
  return passes;
}

function sharedScan(): Promise<Map<string, number[]>> {
  nextScan ??= new Promise((resolve) => {
    setTimeout(
      () => {
        nextScan = undefined;
        lastScanAt = Date.now();
        passes++;
        resolve(scanProc());
      },
      Math.max(0, lastScanAt + MIN_SCAN_INTERVAL_MS - Date.now()),
    );
  });
  return nextScan;
}

/** Live processes carrying `mark`, from a pass over /proc that starts after the call. */
export async function markedProcesses(mark: string): Promise<number[]> {
  return (await sharedScan()).get(mark) ?? [];
}

/** Signals each process that still carries `mark` (checked again just before, as a pid may be reused). */
function signalMarked(pids: readonly number[], mark: string, signal: NodeJS.Signals): void {
  for (const pid of pids) {
    if (!carries(pid, mark)) continue;
    try {
      process.kill(pid, signal);
    } catch {
      // gone
    }
  }
}

/**
 * Ends every process carrying `mark`: SIGTERM, then SIGKILL after `graceMs` to what is left, in rounds
 * (a process may fork while it is being killed; each round finds the new children). Resolves after
 * one pass over /proc when there is none, and within `graceMs` + about a second otherwise.
 */
export async function endMarked(mark: string, graceMs: number): Promise<void> {
  let left = await markedProcesses(mark);
  if (left.length === 0) return;
  signalMarked(left, mark, 'SIGTERM');
  const killAt = Date.now() + graceMs;
  while (left.length > 0 && Date.now() < killAt) left = await markedProcesses(mark);
  for (let round = 0; left.length > 0 && round < 20; round++) {
    signalMarked(left, mark, 'SIGKILL');
    left = await markedProcesses(mark);
  }
}

/** SIGKILL to every process carrying one of `marks`, synchronously (the host is exiting). */
export function killMarkedNow(marks: Iterable<string>): void {
  const byMark = scanProc();
  for (const mark of marks) signalMarked(byMark.get(mark) ?? [], mark, 'SIGKILL');
}
