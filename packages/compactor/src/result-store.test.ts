import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createResultStore } from './result-store.js';
import { safeName } from './safe-name.js';
import { storedResult } from './__fixtures__/stored-result.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'compactor-store-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

async function listAll(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(join(entry.parentPath, entry.name));
  }
  return out;
}

const HOSTILE_IDS = [
  '',
  '.',
  '..',
  '../escape',
  '../../../../etc/passwd',
  '/absolute/path',
  'a/b',
  'a\\b',
  'nul\u0000byte',
  'x'.repeat(10_000),
  'x'.repeat(10_001),
  'UPPER',
  'upper',
  '~7570706572',
  '~~abc',
  'toolu_01AbCdEf',
  'call 1',
  'ünïcode-🚀',
  ' ',
  'CON',
];

describe('safeName', () => {
  it('maps every hostile id to a distinct, single path segment', () => {
    const names = HOSTILE_IDS.map((id) => safeName(id));
    expect(new Set(names).size).toBe(HOSTILE_IDS.length);
    // On a case-insensitive file system the names stay distinct after case folding.
    const folded = HOSTILE_IDS.map((id) => safeName(id, { caseInsensitive: true }));
    expect(new Set(folded.map((n) => n.toLowerCase())).size).toBe(HOSTILE_IDS.length);
    for (const name of [...names, ...folded]) {
      expect(name).not.toMatch(/[/\\\u0000]/);
      expect(name).not.toBe('.');
      expect(name).not.toBe('..');
      expect(name.length).toBeGreaterThan(0);
      expect(name.length).toBeLessThanOrEqual(200);
    }
    // Usual provider ids keep their literal name: <toolCallId>.json.
    expect(safeName('call_abc-1')).toBe('call_abc-1');
    expect(safeName('toolu_01AbCdEf')).toBe('toolu_01AbCdEf');
    expect(safeName('toolu_01AbCdEf', { caseInsensitive: true })).toMatch(/^~[0-9a-f]+$/);
  });
});

describe('createResultStore', () => {
  it('writes and reads hostile ids inside the folder, each to its own file', async () => {
    const store = createResultStore({ dataDir });
    for (const id of HOSTILE_IDS) {
      const path = await store.write(storedResult(id, id === '' ? null : `task ${id}`));
      const rel = relative(store.root, path);
      expect(rel.startsWith('..')).toBe(false);
      expect(rel.split(sep)).toHaveLength(2);
    }
    for (const id of HOSTILE_IDS) {
      const back = await store.read(id === '' ? undefined : `task ${id}`, id);
      expect(back?.toolCallId).toBe(id);
      expect(back?.output).toBe(`raw output of ${id}`);
    }
    const files = (await listAll(store.root)).filter((f) => !f.includes('.Case-Probe'));
    expect(files).toHaveLength(HOSTILE_IDS.length);
    expect(files.every((f) => !relative(dataDir, f).startsWith('..'))).toBe(true);
  });

  it('keeps tasks apart: the same call id in another task is another record', async () => {
    const store = createResultStore({ dataDir });
    await store.write(storedResult('same', 'task-a', 'A'));
    await store.write(storedResult('same', 'task-b', 'B'));
    expect((await store.read('task-a', 'same'))?.output).toBe('A');
    expect((await store.read('task-b', 'same'))?.output).toBe('B');
    expect(await store.read('task-c', 'same')).toBeUndefined();
    expect(await store.read(undefined, 'same')).toBeUndefined();
  });

  it('lays records out at <dataDir>/compacted_outputs/<taskId>/<toolCallId>.json', async () => {
    const store = createResultStore({ dataDir });
    const path = await store.write(storedResult('call_1', 'task-1'));
    expect(path).toBe(join(dataDir, 'compacted_outputs', 'task-1', 'call_1.json'));
    expect(JSON.parse(await readFile(path, 'utf8')).toolCallId).toBe('call_1');
  });

  it('leaves no final file and no temp file when the process fails between write and rename', async () => {
    let tempSeen: string | undefined;
    const store = createResultStore({
      dataDir,
      beforeRename: async (temp) => {
        tempSeen = temp;
        // The temp file is complete at this point; the final name does not exist yet.
        expect(JSON.parse(await readFile(temp, 'utf8')).toolCallId).toBe('call_crash');
        throw new Error('simulated crash before rename');
      },
    });
    await expect(store.write(storedResult('call_crash'))).rejects.toThrow('simulated crash');
    expect(tempSeen).toBeDefined();
    expect(await listAll(store.root)).toEqual([]);
    expect(await store.read('task-1', 'call_crash')).toBeUndefined();
  });

  it('overwrites an earlier record atomically: a reader sees the old or the new record, never a mix', async () => {
    const first = createResultStore({ dataDir });
    await first.write(storedResult('call_x', 'task-1', 'old'.repeat(100_000)));
    const failing = createResultStore({
      dataDir,
      beforeRename: () => {
        throw new Error('crash');
      },
    });
    await expect(failing.write(storedResult('call_x', 'task-1', 'new'.repeat(100_000)))).rejects.toThrow('crash');
    expect((await first.read('task-1', 'call_x'))?.output).toBe('old'.repeat(100_000));
  });

  it('removes the temp file and writes nothing when the stop signal fires during the write', async () => {
    const controller = new AbortController();
    const store = createResultStore({ dataDir, beforeRename: () => controller.abort(new Error('user stop')) });
    await expect(store.write(storedResult('mid'), controller.signal)).rejects.toThrow('user stop');
    expect(await listAll(store.root)).toEqual([]);

    const early = new AbortController();
    early.abort(new Error('user stop'));
    await expect(createResultStore({ dataDir }).write(storedResult('early'), early.signal)).rejects.toThrow('user stop');
    expect(await createResultStore({ dataDir }).read('task-1', 'early')).toBeUndefined();
  });

  it('is readable by a new instance (a restart)', async () => {
    const output = 'line one\nline two 🚀\r\n\ttabs and \u0000 nul and lone \ud800 surrogate';
    await createResultStore({ dataDir }).write(storedResult('call_restart', 'task-1', output));
    const after = createResultStore({ dataDir });
    expect((await after.read('task-1', 'call_restart'))?.output).toBe(output);
  });

  it('prunes by age and by size, and removes stale temp files', async () => {
    let now = Date.now();
    const store = createResultStore({ dataDir, now: () => now, staleTempMs: 1_000 });
    for (const id of ['a', 'b', 'c', 'd']) await store.write(storedResult(id, 'task-1', id.repeat(1_000)));
    const path = (id: string) => store.pathFor('task-1', id);
    const old = new Date(now - 10 * 86_400_000);
    await utimes(path('a'), old, old);
    const older = new Date(now - 3_000);
    await utimes(path('b'), older, older);
    await utimes(path('c'), new Date(now - 2_000), new Date(now - 2_000));
    const temp = join(store.root, 'task-1', '.orphan.123.abc.tmp');
    await writeFile(temp, '{"torn":');
    await utimes(temp, old, old);

    const byAge = await store.prune({ maxAgeMs: 86_400_000 });
    expect(byAge.removed).toBe(1);
    expect(await store.read('task-1', 'a')).toBeUndefined();
    await expect(stat(temp)).rejects.toThrow();

    const size = (await stat(path('d'))).size;
    const bySize = await store.prune({ maxBytes: size * 2 });
    expect(bySize.removed).toBe(1);
    expect(await store.read('task-1', 'b')).toBeUndefined(); // the oldest goes first
    expect(await store.read('task-1', 'c')).toBeDefined();
    expect(await store.read('task-1', 'd')).toBeDefined();
    now += 1;
  });

  it('applies the host retention policy after writes', async () => {
    const store = createResultStore({ dataDir, retention: { maxBytes: 1 }, pruneIntervalMs: 0 });
    await store.write(storedResult('one'));
    // The prune runs in the background after the write.
    for (let i = 0; i < 50 && (await store.read('task-1', 'one')); i++) await new Promise((r) => setTimeout(r, 10));
    expect(await store.read('task-1', 'one')).toBeUndefined();
  });

  it('rejects a missing data dir with a clear error', () => {
    expect(() => createResultStore({ dataDir: '' })).toThrow(/data dir/);
  });
});
