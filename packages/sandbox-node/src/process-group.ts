import { readdirSync, readFileSync } from 'node:fs';

/** The fields of a /proc/<pid>/stat line after the command name: state, ppid, pgrp, ... */
function statFields(stat: string): string[] {
  // "pid (comm) state ppid pgrp ..."; comm may contain spaces and parentheses.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * Live processes, other than members of `pgid`, whose environment carries `marker`
 * (`NAME=value`): what a command started with `setsid` or double-forking to leave its process
 * group. Only pids above `minPid` are read: a command's descendants get higher pids (unless the
 * pid space wrapped around, so this is best effort; bubblewrap's PID namespace is the guarantee).
 * Linux only; empty elsewhere.
 */
export function markedStrays(marker: string, pgid: number, minPid: number): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc');
  } catch {
    return [];
  }
  const needle = Buffer.from(`\0${marker}\0`);
  const first = Buffer.from(`${marker}\0`);
  const found: number[] = [];
  for (const name of pids) {
    const pid = Number(name);
    if (!(pid > minPid)) continue;
    try {
      const env = readFileSync(`/proc/${name}/environ`);
      if (!(env.includes(needle) || env.subarray(0, first.length).equals(first))) continue;
      const fields = statFields(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (fields[0] !== 'Z' && fields[0] !== 'X' && Number(fields[2]) !== pgid) found.push(pid);
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/**
 * Whether a process group still has a live member. `kill(-pgid, 0)` answers "no" cheaply; when
 * it says "yes", /proc is read (on Linux) to ignore zombies: a killed process reparented to a
 * container init that reaps slowly still answers `kill`, yet it is dead.
 */
export function groupAlive(pgid: number): boolean {
  if (!killZeroAlive(pgid)) return false;
  let pids: string[];
  try {
    pids = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const name of pids) {
    // Members are the leader and its descendants; same best-effort pid ordering as above.
    if (!(Number(name) >= pgid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    const fields = statFields(stat);
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}

function killZeroAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a single process is alive (not a zombie). */
export function processAlive(pid: number): boolean {
  try {
    const state = statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'))[0];
    return state !== 'Z' && state !== 'X';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/** Sends a signal to a whole process group, ignoring "already gone". */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/** Sends a signal to single processes, ignoring "already gone". */
export function signalEach(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}
