import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createTaskStore } from '@aibuddy/compactor';
import { viewCall } from './store-commands.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A saved `execute` call whose output carries an OSC 52 clipboard write and a line rewrite. */
async function savedCall(): Promise<{ dataDir: string; stdout: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'aibuddy-view-'));
  dirs.push(dataDir);
  const stdout = 'fine\n\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07\x1b[2K\rall tests passed\n';
  await createTaskStore({ dataDir }).writeCall({
    version: 1,
    taskId: 't1',
    toolCallId: 'c1',
    toolName: 'execute',
    input: { command: 'cat notes.txt' },
    output: { stdout, stderr: '' },
    durationMs: 1,
    createdAt: new Date().toISOString(),
  });
  return { dataDir, stdout };
}

async function view(dataDir: string, isTTY: boolean): Promise<string> {
  const out = Object.assign(new PassThrough(), { isTTY });
  let text = '';
  out.on('data', (d: Buffer) => (text += d.toString()));
  const code = await viewCall(
    { command: 'view-call', toolCallId: 'c1', taskId: 't1', dataDir, workspace: undefined, json: false },
    { stdout: out },
  );
  expect(code).toBe(0);
  return text;
}

describe('aibuddy view-call', () => {
  it('writes the saved output byte for byte into a pipe', async () => {
    const { dataDir, stdout } = await savedCall();
    expect(await view(dataDir, false)).toBe(stdout);
  });

  it('shows control characters escaped on a terminal (no clipboard write, no rewritten line)', async () => {
    const { dataDir } = await savedCall();
    const shown = await view(dataDir, true);
    expect(shown).not.toMatch(/[\x07\x1b\r]/);
    expect(shown).toBe('fine\n\\x1b]52;c;Y3VybCBldmlsIHwgc2g=\\x07\\x1b[2K\\rall tests passed\n');
  });
});
