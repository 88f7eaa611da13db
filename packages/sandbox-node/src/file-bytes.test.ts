// Issue 13, "Data integrity" and "Hangs and memory" for the Node sandbox's reads and edits:
// non-UTF-8 files, sparse and growing files, size checks before reading. Real files, real processes.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxArgumentError, SandboxEditError, SandboxTooLargeError } from '@aibuddy/sandbox';
import { guessEncoding } from './encoding.js';
import { createNodeSandbox, type NodeSandbox } from './node-sandbox.js';

let root: string;
let sandbox: NodeSandbox;

// "// 中文注释" (a Chinese comment) and a line of code, in GBK: 中 D6D0, 文 CEC4, 注 D7A2, 释 CACD.
const GBK = Buffer.concat([
  Buffer.from('// '),
  Buffer.from([0xd6, 0xd0, 0xce, 0xc4, 0xd7, 0xa2, 0xca, 0xcd]),
  Buffer.from('\nconst a = 1;\n'),
]);
// "café = 1" and "naïve" in Latin-1: é E9, ï EF.
const LATIN1 = Buffer.from('caf\xe9 = 1\nna\xefve = 2\n', 'latin1');

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'aibuddy-bytes-'));
  sandbox = await createNodeSandbox({ type: 'node', root, isolation: 'off' });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const rejection = async (promise: Promise<unknown>): Promise<Error> => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
};

describe('encodings', () => {
  it('guesses UTF-8, GBK and Latin-1 from the bytes', () => {
    expect(guessEncoding(Buffer.from('plain ascii\n'))).toBe('utf-8');
    expect(guessEncoding(Buffer.from('中文 ünïcode\n'))).toBe('utf-8');
    expect(guessEncoding(GBK)).toBe('gbk?');
    expect(guessEncoding(LATIN1)).toBe('latin-1?');
  });

  it('readFile says when a file is not UTF-8 and decodes it with the guess', async () => {
    writeFileSync(join(root, 'gbk.ts'), GBK);
    writeFileSync(join(root, 'latin1.txt'), LATIN1);
    writeFileSync(join(root, 'utf8.txt'), '中文\n');
    expect(await sandbox.readFile('gbk.ts')).toMatchObject({ encoding: 'gbk?', content: '// 中文注释\nconst a = 1;' });
    expect(await sandbox.readFile('latin1.txt')).toMatchObject({ encoding: 'latin-1?', content: 'café = 1\nnaïve = 2' });
    expect(await sandbox.readFile('utf8.txt')).toMatchObject({ encoding: 'utf-8', content: '中文' });
  });

  it('editFile edits ASCII text of a GBK file byte-exactly', async () => {
    writeFileSync(join(root, 'gbk-edit.ts'), GBK);
    const result = await sandbox.editFile('gbk-edit.ts', { oldText: 'a = 1', newText: 'a = 2' });
    expect(result.replacements).toBe(1);
    const expected = Buffer.from(GBK);
    expected[expected.indexOf('1;')] = '2'.charCodeAt(0);
    expect(readFileSync(join(root, 'gbk-edit.ts')).equals(expected)).toBe(true);
  });

  it('editFile refuses non-ASCII text in a non-UTF-8 file at the parameters stage, naming the encoding, and leaves it untouched', async () => {
    writeFileSync(join(root, 'gbk-refuse.ts'), GBK);
    writeFileSync(join(root, 'latin1-refuse.txt'), LATIN1);
    const gbk = await rejection(sandbox.editFile('gbk-refuse.ts', { oldText: 'const a = 1;', newText: 'const a = 1; // 改' }));
    expect(SandboxArgumentError.isInstance(gbk)).toBe(true);
    expect(gbk.message).toMatch(/not UTF-8 text \(probably GBK/);
    expect(gbk.message).toMatch(/left untouched/);
    expect(readFileSync(join(root, 'gbk-refuse.ts')).equals(GBK)).toBe(true);
    const latin = await rejection(sandbox.editFile('latin1-refuse.txt', { oldText: 'naïve', newText: 'naive' }));
    expect(latin.message).toMatch(/Latin-1/);
    expect(readFileSync(join(root, 'latin1-refuse.txt')).equals(LATIN1)).toBe(true);
  });

  it('editFile keeps every byte outside the replaced range: invalid UTF-8, a BOM, mixed line endings', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('a\r\nbad: '),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('\nx = 1\n'),
    ]);
    writeFileSync(join(root, 'mixed.txt'), bytes);
    await sandbox.editFile('mixed.txt', { oldText: 'x = 1', newText: 'x = 22' });
    const after = readFileSync(join(root, 'mixed.txt'));
    expect(after.equals(Buffer.concat([bytes.subarray(0, bytes.length - 6), Buffer.from('x = 22\n')]))).toBe(true);
  });
});

describe('size limits before reading', () => {
  it('editFile refuses a 1.5 GiB sparse file from its size, fast and without reading it', async () => {
    const path = join(root, 'huge.txt');
    writeFileSync(path, 'x = 1\n');
    truncateSync(path, 1.5 * 1024 ** 3);
    const rss = process.memoryUsage().rss;
    const started = Date.now();
    const error = await rejection(sandbox.editFile('huge.txt', { oldText: 'x = 1', newText: 'x = 2' }));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(SandboxTooLargeError.isInstance(error)).toBe(true);
    expect(error.message).toMatch(/over the 16777216-byte \(16 MiB\) edit limit; nothing was read/);
    expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 1024 * 1024);
    expect(statSync(path).size).toBe(1.5 * 1024 ** 3);
  });

  it('readFile with maxBytes refuses a larger file before reading', async () => {
    writeFileSync(join(root, 'ten.txt'), '0123456789');
    const error = await rejection(sandbox.readFile('ten.txt', { maxBytes: 5 }));
    expect(SandboxTooLargeError.isInstance(error)).toBe(true);
    expect((await sandbox.readFile('ten.txt', { maxBytes: 10 })).content).toBe('0123456789');
  });
});

describe('reads bounded in time', () => {
  it('a 4 GiB sparse file returns at once with a note, and the event loop keeps ticking', async () => {
    const path = join(root, 'sparse.txt');
    writeFileSync(path, Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
    truncateSync(path, 4 * 1024 ** 3);
    // The loop keeps ticking: the longest gap between ticks, and from the last tick to the end, stays
    // short. (A tick count would fail whenever both reads finish within one interval.)
    let last = performance.now();
    let longestGap = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    try {
      const started = Date.now();
      const result = await sandbox.readFile('sparse.txt', { offset: 5000 });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(result.stopped).toMatch(/NUL bytes in a row follow \(a sparse hole/);
      expect(result).toMatchObject({ truncated: true, totalLines: undefined, content: '' });
      const head = await sandbox.readFile('sparse.txt', { limit: 3 });
      expect(head.content).toBe('line 1\nline 2\nline 3');
      expect(head.stopped).toBeUndefined();
    } finally {
      clearInterval(timer);
    }
    longestGap = Math.max(longestGap, performance.now() - last);
    expect(longestGap).toBeLessThan(1000);
  });

  it('stops at the configured time bound with a note', async () => {
    writeFileSync(join(root, 'many.txt'), `${'0123456789abcdef\n'.repeat(500_000)}`);
    const slow = await createNodeSandbox({ type: 'node', root, isolation: 'off', readTimeoutMs: 0 });
    const result = await slow.readFile('many.txt', { offset: 1_000_000 });
    expect(result.stopped).toMatch(/time bound of 0 ms/);
    expect(result.truncated).toBe(true);
  });

  it('a file growing during the read ends at the size it had when opened', async () => {
    const path = join(root, 'growing.log');
    writeFileSync(path, 'start\n'.repeat(100_000));
    // A real writer process appending as fast as it can while we read past the end.
    const writer = spawn(
      process.execPath,
      [
        '-e',
        `const fs=require('fs');const line='x'.repeat(1000)+'\\n';for(;;){fs.appendFileSync(${JSON.stringify(path)}, line.repeat(100));}`,
      ],
      { stdio: 'ignore' },
    );
    try {
      const initial = statSync(path).size;
      for (let i = 0; i < 200 && statSync(path).size === initial; i++) await new Promise((r) => setTimeout(r, 25));
      expect(statSync(path).size).toBeGreaterThan(initial);
      const result = await sandbox.readFile('growing.log', { offset: 100_000_000 });
      expect(result.totalLines).toBeDefined();
      const atOpen = readFileSync(path).subarray(0, result.size);
      const newlines = atOpen.toString('latin1').split('\n').length - 1;
      expect(result.totalLines).toBe(newlines + (atOpen[atOpen.length - 1] === 0x0a ? 0 : 1));
      expect(result.size).toBeGreaterThan(initial);
    } finally {
      writer.kill('SIGKILL');
    }
  });
});

describe('edits of files that change', () => {
  it('refuses an empty old text as before', async () => {
    writeFileSync(join(root, 'e.txt'), 'abc');
    expect(SandboxArgumentError.isInstance(await rejection(sandbox.editFile('e.txt', { oldText: '', newText: 'x' })))).toBe(true);
    expect(SandboxEditError.isInstance(await rejection(sandbox.editFile('e.txt', { oldText: 'zzz', newText: 'x' })))).toBe(true);
  });
});

describe('raw Node errors mapped to their stage', () => {
  it('a too-long path name is an argument error (parameters) saying what to do, for every file operation', async () => {
    const long = `${'n'.repeat(300)}.txt`;
    const attempts: Array<[string, () => Promise<unknown>]> = [
      ['readFile', () => sandbox.readFile(long)],
      ['writeFile', () => sandbox.writeFile(long, 'x')],
      ['editFile', () => sandbox.editFile(long, { oldText: 'a', newText: 'b' })],
      ['ls', () => sandbox.ls(long)],
      ['grep', () => sandbox.grep('x', { path: long })],
    ];
    for (const [name, run] of attempts) {
      const error = await rejection(run());
      expect(SandboxArgumentError.isInstance(error), `${name}: ${String(error)}`).toBe(true);
      expect(error.message).toMatch(/is too long for the filesystem .*use a shorter path/);
    }
  });
});
