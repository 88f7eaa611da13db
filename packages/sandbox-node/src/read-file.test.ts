import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxArgumentError } from '@aibuddy/sandbox';
import { createNodeSandbox, type NodeSandbox } from './node-sandbox.js';

let root: string;
let sandbox: NodeSandbox;
const CHUNK = 256 * 1024;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'aibuddy-read-'));
  sandbox = await createNodeSandbox({ type: 'node', root, isolation: 'off' });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('readFile line windows', () => {
  it('defaults to 2,000 lines and says where to continue', async () => {
    writeFileSync(join(root, 'big.txt'), Array.from({ length: 5000 }, (_, i) => `L${i + 1}`).join('\n'));
    const first = await sandbox.readFile('big.txt');
    expect(first).toMatchObject({ startLine: 1, endLine: 2000, truncated: true, nextOffset: 2001, totalLines: undefined });
    expect(first.content.split('\n')).toHaveLength(2000);
    const last = await sandbox.readFile('big.txt', { offset: first.nextOffset! + 2000 });
    expect(last).toMatchObject({ startLine: 4001, endLine: 5000, truncated: false, totalLines: 5000 });
    expect(last.content.endsWith('L5000')).toBe(true);
  });

  it('an offset past the end returns no lines and the total', async () => {
    writeFileSync(join(root, 'short.txt'), 'a\nb\n');
    expect(await sandbox.readFile('short.txt', { offset: 10 })).toMatchObject({
      content: '',
      startLine: 10,
      endLine: 9,
      totalLines: 2,
      truncated: false,
    });
  });

  it('handles empty files and files without a final newline', async () => {
    writeFileSync(join(root, 'empty.txt'), '');
    expect(await sandbox.readFile('empty.txt')).toMatchObject({ content: '', totalLines: 0, endLine: 0 });
    writeFileSync(join(root, 'nonl.txt'), 'a\nb');
    expect(await sandbox.readFile('nonl.txt')).toMatchObject({ content: 'a\nb', totalLines: 2 });
    expect(await sandbox.readFile('nonl.txt', { offset: 2, limit: 1 })).toMatchObject({ content: 'b', truncated: false });
  });

  it('lines across chunk boundaries, including CRLF split between chunks', async () => {
    const pad = 'x'.repeat(CHUNK - 1); // the \r is the last byte of the first chunk, \n the first of the next
    writeFileSync(join(root, 'boundary.txt'), `${pad}\r\nsecond\r\nthird`);
    const read = await sandbox.readFile('boundary.txt', { offset: 2 });
    expect(read).toMatchObject({ content: 'second\nthird', lineEnding: '\r\n', totalLines: 3 });
  });

  it('a huge single line is cut without loading it whole', async () => {
    writeFileSync(join(root, 'oneline.txt'), `${'é'.repeat(3 * CHUNK)}\nnext`);
    const read = await sandbox.readFile('oneline.txt');
    expect(read.longLinesCut).toEqual([1]);
    const [first, second] = read.content.split('\n');
    expect(first!.startsWith('é'.repeat(2000))).toBe(true);
    expect(first).toMatch(/line 1 cut: 1572864 bytes long/);
    expect(second).toBe('next');
  });

  it('refuses bad offsets and limits before opening the file', async () => {
    for (const options of [{ offset: 0 }, { offset: -1 }, { limit: 0 }, { offset: 1.5 }]) {
      await expect(sandbox.readFile('short.txt', options)).rejects.toSatisfy((e: unknown) => SandboxArgumentError.isInstance(e));
    }
  });

  it('an abort during a long scan rejects', async () => {
    writeFileSync(join(root, 'scan.txt'), 'line\n'.repeat(2_000_000));
    const controller = new AbortController();
    const pending = sandbox.readFile('scan.txt', { offset: 1_999_999, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
  });
});
