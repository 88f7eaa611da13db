// The event log is written beside a run: a disk that fills up (or a file that cannot take writes)
// must cost the log, not the run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openEventLog } from './events.js';

const runEnd = { type: 'run-end', status: 'completed', steps: 1 } as const;

describe('openEventLog', () => {
  it('writes one JSON line per event', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'aibuddy-events-')), 'sub', 'events.jsonl');
    const log = await openEventLog(file);
    log.write(runEnd);
    log.write({ ...runEnd, steps: 2 });
    log.close();
    const lines = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toMatchObject([
      { type: 'run-end', steps: 1 },
      { type: 'run-end', steps: 2 },
    ]);
    expect(typeof lines[0].time).toBe('number');
    expect(log.dropped()).toBe(0);
  });

  it('on a write error (a full disk: /dev/full) reports once, stops logging and counts what it dropped, without throwing', async () => {
    const errors: Error[] = [];
    const log = await openEventLog('/dev/full', { onWriteError: (error) => errors.push(error) });
    expect(() => {
      log.write(runEnd);
      log.write(runEnd);
      log.write(runEnd);
    }).not.toThrow();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/ENOSPC/);
    expect(log.dropped()).toBe(3);
    log.close();
  });

  it('takes back a line cut short by the file size limit, so the log keeps only whole lines', () => {
    // A real short write: `ulimit -f 2` (1 KiB in sh's 512-byte blocks) makes the kernel write part
    // of the long line and refuse the rest with EFBIG (SIGXFSZ ignored, as a shell's trap leaves it).
    const dir = mkdtempSync(join(tmpdir(), 'aibuddy-events-torn-'));
    const script = join(dir, 'write.mjs');
    const file = join(dir, 'events.jsonl');
    writeFileSync(
      script,
      [
        'const { openEventLog } = await import(process.argv[2]);',
        "const log = await openEventLog(process.argv[3], { onWriteError: (e) => console.log('error', e.code) });",
        "log.write({ type: 'run-end', status: 'completed', steps: 1 });",
        "log.write({ type: 'run-end', status: 'completed', steps: 2, pad: 'x'.repeat(3000) });",
        "log.write({ type: 'run-end', status: 'completed', steps: 3 });",
        'log.close();',
        "console.log('dropped', log.dropped());",
      ].join('\n'),
    );
    const events = fileURLToPath(new URL('../dist/events.js', import.meta.url));
    const run = spawnSync('sh', ['-c', 'ulimit -f 2; trap "" XFSZ; exec "$0" "$@"', process.execPath, script, events, file], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim().split('\n')).toEqual(['error EFBIG', 'dropped 2']);
    const lines = readFileSync(file, 'utf8').split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ steps: 1 });
    expect(lines[1]).toBe('');
  });
});
