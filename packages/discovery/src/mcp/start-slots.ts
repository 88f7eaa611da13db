import { availableParallelism } from 'node:os';
import { ToolError } from '@aibuddy/registry';

/**
 * How many stdio servers may be starting at once by default: twice the cores, at least 4.
 *
 * Why bounded: starting a stdio server is mostly the child's own CPU (an interpreter, its imports,
 * `npx` resolving a package). Hundreds started together share the cores, so each one's start
 * stretches to minutes and runs into its start-up timeout: on 2 cores, 200 servers started at once
 * left 90-98 of them failed at 30 s (two runs of bench/scale `--servers=200`). Twice the cores
 * keeps the cores busy while some starts wait on I/O; more only makes each start slower.
 */
export function defaultStartConcurrency(cores: number = availableParallelism()): number {
  return Math.max(4, 2 * cores);
}

/**
 * A counting semaphore, first come first served, for server starts. Why our own and not a library:
 * it is a dozen lines, and the connection needs only acquire and an idempotent release.
 */
export class StartSlots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  /** @param size How many holders at once (a positive integer). */
  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new ToolError(`"maxConcurrentStarts" must be a positive integer (for example 4); got ${String(size)}.`, {
        stage: 'discovery',
        retryable: false,
        hint: 'Pass a whole number of servers that may start at the same time, or leave it out for the default.',
      });
    this.free = size;
  }

  /** Resolves with a release function once a slot is free; releasing twice frees one slot only. */
  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const next = this.waiting.shift();
      // The slot passes straight to the next in line, so no later arrival can overtake it.
      if (next) next();
      else this.free++;
    };
  }
}
