// Finding processes on the host by their exact command line in /proc: how the process-control and
// daemon tests look for anything a command left running.
import { readdirSync, readFileSync } from 'node:fs';
import { processAlive } from '../process-group.js';

/** Host pids of live (non-zombie) processes whose command line is exactly `args`. */
export function findProcesses(...args: string[]): number[] {
  const wanted = `${args.join('\0')}\0`;
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') === wanted && processAlive(Number(name))) found.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** Waits until no process with this command line is left (the kernel kills a namespace asynchronously). */
export async function survivors(args: string[], withinMs = 3000): Promise<number[]> {
  const until = Date.now() + withinMs;
  let left = findProcesses(...args);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    left = findProcesses(...args);
  }
  return left;
}
