import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createResultStore } from './result-store.js';
import { storedResult } from './__fixtures__/stored-result.js';

// The data dir is reachable by the model's commands when the user puts it in the workspace: a
// command can swap any folder of the store for a link to an outside folder. The store must
// neither write, read nor delete through such a link.
let work: string;
let outside: string;
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'compactor-links-'));
  outside = join(work, 'outside');
  await mkdir(outside);
  // What a prune must never touch: files an attacker points the store at.
  await writeFile(join(outside, 'settings.json'), '{"keep":true}');
  await writeFile(join(outside, 'package.json'), '{"name":"victim"}');
  await writeFile(join(outside, 'old.tmp'), 'victim temp');
});
afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

async function outsideFiles(): Promise<string[]> {
  return (await readdir(outside)).sort();
}

describe('the result store never follows a symlink from the data dir down', () => {
  it('refuses to write when the data dir itself was replaced by a link; nothing is written outside', async () => {
    const dataDir = join(work, 'data');
    await symlink(outside, dataDir);
    const store = createResultStore({ dataDir });
    await expect(store.write(storedResult('call_1'))).rejects.toThrow(/refusing to follow the symlink at .*data/);
    expect(await outsideFiles()).toEqual(['old.tmp', 'package.json', 'settings.json']);
  });

  it('refuses to write when compacted_outputs or a task folder is a link', async () => {
    const dataDir = join(work, 'data');
    await mkdir(dataDir);
    await symlink(outside, join(dataDir, 'compacted_outputs'));
    await expect(createResultStore({ dataDir }).write(storedResult('call_1'))).rejects.toThrow(/symlink/);

    const second = join(work, 'data2');
    await mkdir(join(second, 'compacted_outputs'), { recursive: true });
    await symlink(outside, join(second, 'compacted_outputs', 'task-1'));
    await expect(createResultStore({ dataDir: second }).write(storedResult('call_1'))).rejects.toThrow(/symlink/);
    expect(await outsideFiles()).toEqual(['old.tmp', 'package.json', 'settings.json']);
  });

  it('refuses to read a record that is a link to an outside file', async () => {
    const dataDir = join(work, 'data');
    const store = createResultStore({ dataDir });
    await store.write(storedResult('call_1'));
    await writeFile(join(outside, 'secret.json'), JSON.stringify(storedResult('call_2')));
    await symlink(join(outside, 'secret.json'), join(dataDir, 'compacted_outputs', 'task-1', 'call_2.json'));
    await expect(store.read('task-1', 'call_2')).rejects.toThrow(/symlink/);
    expect((await store.read('task-1', 'call_1'))?.output).toBe('raw output of call_1');
  });

  it('prune() over a symlinked task folder deletes nothing outside its own tree', async () => {
    const dataDir = join(work, 'data');
    const store = createResultStore({ dataDir, staleTempMs: 0 });
    await store.write(storedResult('call_1'));
    await symlink(outside, join(dataDir, 'compacted_outputs', 'task-evil'));
    const report = await store.prune({ maxAgeMs: 0, maxBytes: 0 });
    // The store's own record goes; the linked folder's files stay, and so does the link target.
    expect(report.removed).toBe(1);
    expect(await outsideFiles()).toEqual(['old.tmp', 'package.json', 'settings.json']);
    expect(await readFile(join(outside, 'settings.json'), 'utf8')).toBe('{"keep":true}');
  });

  it('prune() refuses a symlinked compacted_outputs instead of pruning its target', async () => {
    const dataDir = join(work, 'data');
    await mkdir(dataDir);
    await mkdir(join(outside, 'task-1'));
    await writeFile(join(outside, 'task-1', 'victim.json'), '{}');
    await symlink(outside, join(dataDir, 'compacted_outputs'));
    await expect(createResultStore({ dataDir }).prune({ maxAgeMs: 0 })).rejects.toThrow(/symlink/);
    expect(await readdir(join(outside, 'task-1'))).toEqual(['victim.json']);
  });
});

describe('stored records are versioned and validated on read', () => {
  it('refuses a record of another version or shape with the path and the fix', async () => {
    const dataDir = join(work, 'data');
    const store = createResultStore({ dataDir });
    const path = await store.write(storedResult('call_1'));
    await writeFile(path, JSON.stringify({ ...storedResult('call_1'), version: 2 }));
    await expect(store.read('task-1', 'call_1')).rejects.toThrow(/version 2; this build reads version 1.*Remove the file/);
    await writeFile(path, JSON.stringify({ ...storedResult('call_1'), originalTokens: 'many' }));
    await expect(store.read('task-1', 'call_1')).rejects.toThrow(/originalTokens/);
    await writeFile(path, '{"version":1,');
    await expect(store.read('task-1', 'call_1')).rejects.toThrow(/not valid JSON/);
  });
});
