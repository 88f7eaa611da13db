import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, readEvents, replay, startCli, tempDir, workspaceIn, waitFor } from './helpers.js';

/** Pids of processes whose command line contains `marker` (the sandbox may run commands in a PID namespace). */
function pidsWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(marker)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.push(relative(root, path));
    }
  };
  if (existsSync(root)) walk(root);
  return out.sort();
}

describe('stopping a run with SIGINT', { timeout: 120_000 }, () => {
  it('kills the running command, leaves no half-written file, and exits non-zero', async () => {
    const dir = tempDir();
    const workspace = workspaceIn(dir);
    const events = join(dir, 'events.jsonl');
    const seconds = `${40 + Math.floor(Math.random() * 1000) / 1000}`; // a unique argument to find the process by
    const model = replay(dir, [
      { toolCalls: [{ toolName: 'write_file', input: { path: 'notes.md', content: '# notes\n'.repeat(2000) }, id: 'w' }] },
      {
        toolCalls: [
          { toolName: 'execute', input: { command: `echo started; sleep ${seconds}; echo never > late.txt` }, id: 'slow' },
        ],
      },
      { text: 'not reached' },
    ]);
    const run = startCli(['run', 'wait', '--model', model, '--workspace', workspace, '--events', events]);
    await waitFor(() => run.output().stdout.includes('│ started'), 20_000, 'the command to start');
    const pids = await waitFor(
      () => {
        const found = pidsWith(seconds);
        return found.length > 0 ? found : undefined;
      },
      5_000,
      'the sleep process',
    );
    run.child.kill('SIGINT');
    const result = await run.result;
    expect(result.code).toBe(130);
    expect(result.stderr).toMatch(/stopping/);
    expect(result.stderr).toMatch(/run aborted: \[execution\] the run was stopped/);
    for (const pid of pids) expect(isAlive(pid), `pid ${pid}`).toBe(false);
    expect(pidsWith(seconds)).toEqual([]);

    // Only whole files: the finished write, no temp files, nothing the stopped command would have written.
    expect(filesUnder(workspace)).toEqual(['notes.md']);
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('# notes\n'.repeat(2000));
    const log = readEvents(events); // every line parses
    expect(log.at(-1)).toMatchObject({ type: 'run-end', status: 'aborted' });
    expect(log.find((e) => e.type === 'tool-result' && e.toolCallId === 'slow')).toMatchObject({ error: { stage: 'execution' } });
  });
});
