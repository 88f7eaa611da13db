import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { alive } from '../__fixtures__/mcp-helpers.js';
import {
  endMarked,
  killMarkedNow,
  markedProcesses,
  newTreeMark,
  scanPasses,
  TREE_MARK_VARIABLE,
  treeMarkValue,
} from './tree-mark.js';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

/** A detached process (a session of its own, as a daemon) with these extra environment variables. */
async function daemon(env: Record<string, string>, ignoreTerm = false): Promise<number> {
  const code = ignoreTerm
    ? "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000);"
    : "console.log('ready'); setInterval(() => {}, 1000);";
  const child = spawn(process.execPath, ['-e', code], {
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  started.push(child);
  await once(child.stdout!, 'data');
  return child.pid!;
}

describe('treeMarkValue', () => {
  it('appends the mark to the inherited ones', () => {
    expect(treeMarkValue(undefined, 'b')).toBe('b');
    expect(treeMarkValue('', 'b')).toBe('b');
    expect(treeMarkValue('a', 'b')).toBe('a,b');
    expect(newTreeMark()).toMatch(/^[0-9a-f]{24}$/);
    expect(newTreeMark()).not.toBe(newTreeMark());
  });
});

describe.skipIf(!existsSync('/proc/self/environ'))('marked processes (Linux /proc)', () => {
  it('finds a process by its own mark and by an inherited one, never by a look-alike', async () => {
    const [inner, outer, other] = [newTreeMark(), newTreeMark(), newTreeMark()];
    const nested = await daemon({ [TREE_MARK_VARIABLE]: `${outer},${inner}` });
    const lookalikeName = await daemon({ [`X${TREE_MARK_VARIABLE}`]: inner });
    const lookalikeValue = await daemon({ [TREE_MARK_VARIABLE]: `${inner}0` });
    const unrelated = await daemon({ [TREE_MARK_VARIABLE]: other });
    expect(await markedProcesses(inner)).toEqual([nested]);
    expect(await markedProcesses(outer)).toEqual([nested]);
    expect(await markedProcesses(other)).toEqual([unrelated]);
    expect(await markedProcesses(newTreeMark())).toEqual([]);
    for (const pid of [lookalikeName, lookalikeValue]) expect(alive(pid)).toBe(true);
  });

  it('endMarked: SIGTERM first, SIGKILL after the grace to one that ignores it; other marks untouched', async () => {
    const [mark, other] = [newTreeMark(), newTreeMark()];
    const polite = await daemon({ [TREE_MARK_VARIABLE]: mark });
    const stubborn = await daemon({ [TREE_MARK_VARIABLE]: mark }, true);
    const bystander = await daemon({ [TREE_MARK_VARIABLE]: other });
    const start = Date.now();
    await endMarked(mark, 300);
    const took = Date.now() - start;
    expect([alive(polite), alive(stubborn), alive(bystander)]).toEqual([false, false, true]);
    // The stubborn one outlived SIGTERM: it only went after the grace period.
    expect(took).toBeGreaterThanOrEqual(280);
    expect(await markedProcesses(mark)).toEqual([]);
  });

  it('endMarked resolves after one pass when no process carries the mark', async () => {
    const start = Date.now();
    await endMarked(newTreeMark(), 5_000);
    expect(Date.now() - start).toBeLessThan(1_000);
  });

  it('callers waiting together share one pass over /proc, which starts after they asked', async () => {
    const mark = newTreeMark();
    const marked = await daemon({ [TREE_MARK_VARIABLE]: mark });
    const passes = scanPasses();
    const results = await Promise.all(Array.from({ length: 50 }, () => markedProcesses(mark)));
    expect(scanPasses() - passes).toBe(1);
    for (const found of results) expect(found).toEqual([marked]);
    // The next call gets a pass of its own, not the finished one: a process ended since is not reported.
    process.kill(marked, 'SIGKILL');
    const deadline = Date.now() + 5_000;
    while (alive(marked) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(await markedProcesses(mark)).toEqual([]);
    expect(scanPasses() - passes).toBe(2);
  });

  it('killMarkedNow kills the processes of the given marks only, synchronously', async () => {
    const [a, b, c] = [newTreeMark(), newTreeMark(), newTreeMark()];
    const pa = await daemon({ [TREE_MARK_VARIABLE]: a }, true);
    const pb = await daemon({ [TREE_MARK_VARIABLE]: `${c},${b}` }, true);
    const pc = await daemon({ [TREE_MARK_VARIABLE]: c.slice(1) }, true);
    killMarkedNow([a, b]);
    const deadline = Date.now() + 5_000;
    while ((alive(pa) || alive(pb)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect([alive(pa), alive(pb), alive(pc)]).toEqual([false, false, true]);
  });
});
