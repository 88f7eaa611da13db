import { createHash } from 'node:crypto';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, createWorkspace, runSteps, withActor } from '@aibuddy/tool-harness';
import type { Workspace } from '@aibuddy/tool-harness';
import { createFilesystemToolConfig, filesystemToolConfig } from './filesystem-config.js';

const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

let ws: Workspace;
beforeAll(async () => {
  ws = await createWorkspace();
});
afterAll(async () => {
  await ws.dispose();
});

describe('write_file', () => {
  it('creates a file (and its folders), then reports size, line count and hash verified by reading back', async () => {
    const content = 'first\nsecond\nthird\n';
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(['w', 'write_file', { path: 'new/dir/file.txt', content }]),
    );
    const onDisk = await readFile(join(ws.root, 'new/dir/file.txt'));
    expect(onDisk.toString()).toBe(content);
    expect(run.seen('w').text).toBe(
      `Created new/dir/file.txt: 19 B (19 bytes), 3 lines, sha256 ${sha(onDisk).slice(0, 16)}. Verified by reading it back.`,
    );
    const event = run.events.find((e) => e.type === 'tool-result');
    expect(event).toMatchObject({
      client: { output: { sha256: sha(onDisk), size: 19, lines: 3, created: true, verified: true } },
    });
  });

  it('writes CRLF content byte for byte and says so', async () => {
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(['w', 'write_file', { path: 'win.txt', content: 'a\r\nb\r\n' }]),
    );
    expect(await readFile(join(ws.root, 'win.txt'), 'utf8')).toBe('a\r\nb\r\n');
    expect(run.seen('w').text).toMatch(/^Created win\.txt: 6 B \(6 bytes\), 2 lines, CRLF line endings, sha256 /);
  });

  it('refuses to overwrite an existing file the agent has not read in this run, and leaves it alone', async () => {
    await writeFile(join(ws.root, 'precious.txt'), 'keep me\n');
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(['w', 'write_file', { path: 'precious.txt', content: 'gone\n' }]),
    );
    expect(run.seen('w').text).toBe(
      '[parameters] write_file: precious.txt already exists (8 B) and you have not read it in this run; write_file refuses to overwrite it unseen. Read it with read_file first, then write it whole; or change part of it with edit_file.',
    );
    expect(await readFile(join(ws.root, 'precious.txt'), 'utf8')).toBe('keep me\n');
  });

  it('overwrites a file after reading it, and again after its own write', async () => {
    await writeFile(join(ws.root, 'seen.txt'), 'old\n');
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(
        ['r', 'read_file', { path: 'seen.txt' }],
        ['w1', 'write_file', { path: 'seen.txt', content: 'new\n' }],
        ['w2', 'write_file', { path: './seen.txt', content: 'newer\n' }],
      ),
    );
    expect(run.seen('w1').text).toMatch(/^Overwrote seen\.txt: 4 B/);
    expect(run.seen('w2').text).toMatch(/^Overwrote seen\.txt: 6 B/);
    expect(await readFile(join(ws.root, 'seen.txt'), 'utf8')).toBe('newer\n');
  });

  it('refuses to overwrite a file that changed on disk since it was read', async () => {
    await writeFile(join(ws.root, 'moving.txt'), 'v1\n');
    let reads = 0;
    // A person edits the file right after the agent's read.
    const sandbox = withActor(ws.sandbox, 'readFile', async (path) => {
      if (path === 'moving.txt' && reads++ === 0) await appendFile(join(ws.root, 'moving.txt'), 'their change\n');
    });
    const run = await runSteps(
      filesystemToolConfig,
      sandbox,
      calls(['r', 'read_file', { path: 'moving.txt' }], ['w', 'write_file', { path: 'moving.txt', content: 'mine\n' }]),
    );
    expect(run.seen('w').text).toMatch(
      /^\[parameters\] write_file: moving\.txt changed on disk since you last read it \(its (modification time|size) changed/,
    );
    expect(await readFile(join(ws.root, 'moving.txt'), 'utf8')).toBe('v1\ntheir change\n');
  });

  it('refuses paths outside the workspace, directories and over-long content', async () => {
    const small = createFilesystemToolConfig({ limits: { writeChars: 10 } });
    const run = await runSteps(
      small,
      ws.sandbox,
      calls(
        ['out', 'write_file', { path: '../evil.txt', content: 'x' }],
        ['dir', 'write_file', { path: 'new', content: 'x' }],
        ['big', 'write_file', { path: 'big.txt', content: 'x'.repeat(11) }],
      ),
    );
    expect(run.seen('out').text).toMatch(/^\[parameters\] write_file: .*must stay inside it/);
    expect(run.seen('dir').text).toMatch(/^\[parameters\] write_file: /);
    expect(run.seen('big').text).toMatch(/^\[parameters\] write_file: invalid input: content: content is over 10 characters/);
  });

  it('fails at the verification stage when what is read back is not what was written (a concurrent writer)', async () => {
    const racing = withActor(ws.sandbox, 'writeFile', async (path) => {
      await appendFile(join(ws.root, path), 'interference\n');
    });
    const run = await runSteps(
      filesystemToolConfig,
      racing,
      calls(['w', 'write_file', { path: 'raced.txt', content: 'mine\n' }]),
    );
    expect(run.seen('w').text).toMatch(
      /^\[verification\] write_file: read-back mismatch for raced\.txt: expected 5 bytes and the written text, found 18 bytes with different text\./,
    );
  });

  it('treats writes and edits of git hooks and config as high impact (refused when no one can be asked)', async () => {
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(
        ['hook', 'write_file', { path: '.git/hooks/pre-commit', content: '#!/bin/sh\n' }],
        ['cfg', 'edit_file', { path: './.git/config', old_text: 'a', new_text: 'b' }],
        ['ok', 'write_file', { path: 'docs/git/config', content: 'x' }],
      ),
    );
    expect(run.seen('hook').text).toMatch(
      /^\[authorization\] write_file: this call is high impact \(Writing \.git\/hooks\/pre-commit changes what git runs/,
    );
    expect(run.seen('cfg').text).toMatch(/^\[authorization\] edit_file: this call is high impact \(Editing \.\/\.git\/config/);
    expect(run.seen('ok').text).toMatch(/^Created docs\/git\/config/);
  });
});
