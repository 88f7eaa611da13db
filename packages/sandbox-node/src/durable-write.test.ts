// The atomic write is durable: the temp file is fsynced before the rename and the folder after it,
// observed on the real system calls of this very process (strace attached to every thread, since
// libuv's thread pool makes the calls).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemTool } from '@aibuddy/test-utils/system-tools';
import { createNodeSandbox, type NodeSandbox } from './node-sandbox.js';

const strace = systemTool('strace');
let base: string;
let sandbox: NodeSandbox;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'aibuddy-durable-'));
  mkdirSync(join(base, 'ws', 'sub'), { recursive: true });
  sandbox = await createNodeSandbox({ type: 'node', root: join(base, 'ws'), isolation: 'off' });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(base, { recursive: true, force: true });
});

/** The fsync calls (with the paths of their descriptors) this process makes while `run` runs. */
async function fsyncsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const log = join(base, `strace-${Date.now()}.log`);
  const tracer = spawn('strace', ['-f', '-y', '-e', 'trace=fsync,fdatasync', '-o', log, '-p', String(process.pid)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Wait until strace says it holds the process ("Process N attached with K threads").
  await new Promise<void>((resolve, reject) => {
    let said = '';
    tracer.stderr.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (/attached/.test(said)) resolve();
    });
    tracer.once('exit', (code) => reject(new Error(`strace exited (${code}) before attaching: ${said}`)));
  });
  try {
    await run();
  } finally {
    const exited = new Promise((resolve) => tracer.once('exit', resolve));
    tracer.kill('SIGINT');
    await exited;
  }
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => /\bf(data)?sync\(/.test(line));
}

describe.skipIf(strace.skip)('writeFile is durable (strace)', () => {
  it('fsyncs the temp file before the rename and the folder after it', async () => {
    const calls = await fsyncsDuring(() => sandbox.writeFile('sub/a.txt', 'hello\n'));
    expect(calls.some((line) => /fsync\(\d+<[^>]*\.aibuddy-tmp>\)/.test(line))).toBe(true);
    expect(calls.some((line) => /fsync\(\d+<[^>]*\/ws\/sub>\)/.test(line))).toBe(true);
    expect(readFileSync(join(base, 'ws', 'sub', 'a.txt'), 'utf8')).toBe('hello\n');
  });
});
