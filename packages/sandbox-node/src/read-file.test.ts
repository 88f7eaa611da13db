import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxArgumentError, SandboxBinaryFileError } from '@aibuddy/sandbox';
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

  it('names a UTF-16 or UTF-32 file by its byte order mark and says how to convert it (read and edit)', async () => {
    const cases: Array<[string, Buffer]> = [
      ['UTF-16LE', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi there\n', 'utf16le')])],
      ['UTF-16BE', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('hi there\n', 'utf16le').swap16()])],
      ['UTF-32LE', Buffer.from([0xff, 0xfe, 0, 0, 0x68, 0, 0, 0, 0x69, 0, 0, 0])],
    ];
    for (const [name, bytes] of cases) {
      writeFileSync(join(root, 'wide.txt'), bytes);
      const read = sandbox.readFile('wide.txt');
      await expect(read).rejects.toSatisfy((e: unknown) => SandboxBinaryFileError.isInstance(e));
      await expect(read).rejects.toThrow(`"wide.txt" is ${name} text (it starts with a ${name} byte order mark)`);
      await expect(read).rejects.toThrow(/iconv -f UTF-(16|32) -t UTF-8/);
      await expect(sandbox.editFile('wide.txt', { oldText: 'hi', newText: 'HI' })).rejects.toThrow(`is ${name} text`);
    }
    // Without a byte order mark, NUL bytes still mean binary.
    writeFileSync(join(root, 'nul.bin'), Buffer.from('ab\0cd'));
    await expect(sandbox.readFile('nul.bin')).rejects.toThrow(/looks binary/);
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
