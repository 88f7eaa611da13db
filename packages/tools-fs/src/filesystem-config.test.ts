import { describe, expect, it, afterAll, beforeAll } from 'vitest';
import { assertConsistent, resolveToolSet, TOOL_CONFIG_METAS, TOOL_NAME_MAP } from '@aibuddy/registry';
import { createFilesystemToolConfig, filesystemToolConfig } from './filesystem-config.js';
import { compactFilesystemResult } from './compact.js';
import { calls, createWorkspace, runSteps } from '@aibuddy/tool-harness';
import type { Workspace } from '@aibuddy/tool-harness';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

let ws: Workspace;
beforeAll(async () => {
  ws = await createWorkspace();
});
afterAll(async () => {
  await ws.dispose();
});

describe('the filesystem config', () => {
  it('is excluded with the reason when the host has no sandbox', async () => {
    const set = await resolveToolSet({ configs: [filesystemToolConfig] });
    expect(set.tools).toEqual([]);
    expect(set.instructions).toEqual([]);
    expect(set.excluded).toEqual([{ key: 'filesystem', reason: 'no sandbox in this host' }]);
  });

  it('yields exactly its six tools, each mapped back to the group, and is consistent with the built-in metas', async () => {
    const set = await resolveToolSet({ configs: [filesystemToolConfig], services: { sandbox: ws.sandbox } });
    expect(set.tools.map((t) => t.definition.name)).toEqual(['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep']);
    expect(
      set.tools.every(
        (t) => t.configKey === 'filesystem' && TOOL_NAME_MAP[t.definition.name as keyof typeof TOOL_NAME_MAP] === 'filesystem',
      ),
    ).toBe(true);
    // Every tool shares the group's client projection and compaction policy.
    expect(new Set(set.tools.map((t) => t.definition.toClient)).size).toBe(1);
    expect(new Set(set.tools.map((t) => t.definition.compact)).size).toBe(1);
    const filesystemMeta = { filesystem: TOOL_CONFIG_METAS.filesystem };
    const nameMap = Object.fromEntries(Object.entries(TOOL_NAME_MAP).filter(([, key]) => key === 'filesystem'));
    expect(() => assertConsistent({ configs: [filesystemToolConfig], metas: filesystemMeta, nameMap })).not.toThrow();
    // A team that uses only this group checks it against the full built-in tables.
    expect(() =>
      assertConsistent({ configs: [filesystemToolConfig], metas: TOOL_CONFIG_METAS, nameMap: TOOL_NAME_MAP, scope: 'given' }),
    ).not.toThrow();
  });

  it('tells the model the limits and to verify after writing', async () => {
    const set = await resolveToolSet({
      configs: [createFilesystemToolConfig({ limits: { readLines: 300 } })],
      services: { sandbox: ws.sandbox },
    });
    const text = set.instructions[0]?.text ?? '';
    expect(text).toContain('at most 300 lines / 40000 characters per call');
    expect(text).toMatch(/verify behaviour \(run the tests or the build\)/);
    expect(text).toMatch(/read it again/);
  });

  it('sends the client a one-line summary with the raw result', async () => {
    await writeFile(join(ws.root, 'client.txt'), 'one\ntwo\n');
    const run = await runSteps(filesystemToolConfig, ws.sandbox, calls(['r', 'read_file', { path: 'client.txt' }]));
    const event = run.events.find((e) => e.type === 'tool-result');
    expect(event).toMatchObject({
      client: { tool: 'read_file', summary: 'client.txt — lines 1-2 of 2 (8 B)', output: { content: 'one\ntwo', totalLines: 2 } },
    });
  });
});

describe('the group compaction policy', () => {
  const args = (toolName: string, modelText: string, targetTokens: number) => ({
    toolName,
    toolCallId: 'x',
    input: {},
    output: {},
    modelText,
    tokens: Math.ceil(modelText.length / 4),
    targetTokens,
    signal: new AbortController().signal,
  });

  it('keeps small results', () => {
    expect(compactFilesystemResult(args('read_file', 'short', 100))).toEqual({ strategy: 'keep' });
  });

  it('trims a long read to head and tail lines and says how to read the omitted lines again', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `${String(i + 1).padStart(6)}\tconst value${i} = ${i};`);
    const text = ['big.ts — lines 1-2000 of 2000 (60 KB)', ...lines].join('\n');
    const decision = compactFilesystemResult(args('read_file', text, 500));
    expect(decision.strategy).toBe('trim');
    const trimmed = decision.strategy === 'trim' ? String(decision.modelOutput) : '';
    expect(trimmed.length).toBeLessThanOrEqual(500 * 4);
    expect(trimmed.startsWith('big.ts — lines 1-2000 of 2000')).toBe(true);
    expect(trimmed).toContain('\t const value1999 = 1999;'.trim());
    const note =
      /\[compacted: (\d+) lines of this read_file result omitted here \(file lines from (\d+) on\); call read_file with offset=(\d+) to see them again\.\]/.exec(
        trimmed,
      );
    expect(note).not.toBeNull();
    const keptLines = trimmed.split('\n').length - 1;
    expect(Number(note![1]) + keptLines).toBe(2001);
    expect(note![2]).toBe(note![3]);
  });

  it('keeps write results (they are small and exact)', () => {
    expect(compactFilesystemResult(args('write_file', 'x'.repeat(10_000), 10))).toEqual({ strategy: 'keep' });
  });
});

describe('the group compaction policy for large inputs', () => {
  const content = Array.from({ length: 3000 }, (_, i) => `line ${i + 1} ${'x'.repeat(30)}`).join('\n');
  const base = {
    toolCallId: 'w1',
    output: {},
    modelText: 'wrote big.txt',
    tokens: 5,
    targetTokens: 1000,
    threshold: 2500,
    signal: new AbortController().signal,
  };

  it('replaces a large write_file content by size, digest, first and last lines and a recovery note', () => {
    const decision = compactFilesystemResult({
      ...base,
      toolName: 'write_file',
      input: { path: 'big.txt', content },
      inputTokens: 30_000,
    });
    expect(decision.strategy).toBe('keep');
    const compact = decision.input?.content as string;
    expect(compact.length).toBeLessThan(2_000);
    expect(compact).toContain(`had ${content.length} characters, 3000 lines, sha256 `);
    expect(compact).toMatch(/view_tool_call with \{"toolCallId":"w1","part":"input"\}/);
    expect(compact).toContain('line 1 ');
    expect(compact).toContain('line 3000 ');
    expect(compact).toContain('[... 2990 lines omitted ...]');
    expect(decision.input?.path).toBe('big.txt');
  });

  it('clips the kept lines without splitting a surrogate pair', () => {
    // Each line's 200-character clip falls between the two halves of an emoji.
    const emojiLines = Array.from({ length: 3000 }, () => `${'a'.repeat(199)}${'😀'.repeat(50)}`).join('\n');
    const decision = compactFilesystemResult({
      ...base,
      toolName: 'write_file',
      input: { path: 'e.txt', content: emojiLines },
      inputTokens: 30_000,
    });
    const compact = decision.input?.content as string;
    expect(compact).toContain(`${'a'.repeat(199)}…`);
    expect(compact).not.toMatch(/\p{Cs}/u); // no lone surrogate
  });

  it("compacts an edit's new_text too, and leaves inputs below the threshold alone", () => {
    const edit = compactFilesystemResult({
      ...base,
      toolName: 'edit_file',
      input: { path: 'a', old_text: 'x', new_text: content },
      inputTokens: 30_000,
    });
    expect(edit.input?.new_text).toMatch(/^\[compacted input: new_text/);
    expect(edit.input?.old_text).toBe('x');
    expect(
      compactFilesystemResult({ ...base, toolName: 'write_file', input: { path: 'a', content }, inputTokens: 2_000 }).input,
    ).toBeUndefined();
    expect(
      compactFilesystemResult({ ...base, toolName: 'read_file', input: { path: 'a' }, inputTokens: 30_000 }).input,
    ).toBeUndefined();
  });
});
