import { readdirSync, readFileSync } from 'node:fs';

/**
 * Live processes, other than members of `pgid`, whose environment carries `marker`
 * (`NAME=value`): what a command started with `setsid` or double-forking to leave its process
 * group. Linux only; empty elsewhere.
 */
export function markedStrays(marker: string, pgid: number): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc');
  } catch {
    return [];
  }
  const needle = Buffer.from(`\0${marker}\0`);
  const first = Buffer.from(`${marker}\0`);
  const found: number[] = [];
  for (const pid of pids) {
    if (pid.charCodeAt(0) < 48 || pid.charCodeAt(0) > 57) continue;
    try {
      const env = readFileSync(`/proc/${pid}/environ`);
      if (!(env.includes(needle) || env.subarray(0, first.length).equals(first))) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z' && fields[0] !== 'X' && Number(fields[2]) !== pgid) found.push(Number(pid));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/**
 * Whether a process group still has a live member. On Linux this reads /proc and ignores
 * zombies: a killed process reparented to a container init that reaps slowly still answers
 * `kill(-pgid, 0)`, yet it is dead. Elsewhere it falls back to `kill(-pgid, 0)`.
 */
export function groupAlive(pgid: number): boolean {
  let pids: string[];
  try {
    pids = readdirSync('/proc');
  } catch {
    return killZeroAlive(pgid);
  }
  for (const pid of pids) {
    if (pid.charCodeAt(0) < 48 || pid.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp ..."; comm may contain spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
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
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
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
