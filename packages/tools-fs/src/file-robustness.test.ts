// Issue 13 through the tools as a model drives them (real sandbox, real files, AI SDK tool loop):
// non-UTF-8 files, flush-left edits against indented files, files over the edit limit.
import { readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, createWorkspace, runSteps } from '@aibuddy/tool-harness';
import type { Workspace } from '@aibuddy/tool-harness';
import { createFilesystemToolConfig, filesystemToolConfig } from './filesystem-config.js';

let ws: Workspace;
beforeAll(async () => {
  ws = await createWorkspace({ isolation: 'off' });
});
afterAll(async () => {
  await ws.dispose();
});

// "// 中文注释" and a line of code in GBK (中 D6D0, 文 CEC4, 注 D7A2, 释 CACD).
const GBK = Buffer.concat([
  Buffer.from('// '),
  Buffer.from([0xd6, 0xd0, 0xce, 0xc4, 0xd7, 0xa2, 0xca, 0xcd]),
  Buffer.from('\nconst a = 1;\n'),
]);
const LATIN1 = Buffer.from('caf\xe9 = 1\n', 'latin1');

async function one(toolName: string, input: Record<string, unknown>, config = filesystemToolConfig) {
  const run = await runSteps(config, ws.sandbox, calls(['x', toolName, input]));
  return run.seen('x').text;
}

describe('files that are not UTF-8', () => {
  it('read_file shows GBK decoded and says it is not UTF-8, with the way to convert it', async () => {
    await writeFile(join(ws.root, 'gbk.ts'), GBK);
    const text = await one('read_file', { path: 'gbk.ts' });
    expect(text).toContain('     1\t// 中文注释');
    expect(text).toContain(
      '[Not UTF-8: this file is probably GBK (Chinese); shown decoded as that (a guess). edit_file can change only its ASCII text; to edit the rest, convert it to UTF-8 first (for example: iconv -f GBK -t UTF-8).]',
    );
    await writeFile(join(ws.root, 'latin1.txt'), LATIN1);
    expect(await one('read_file', { path: 'latin1.txt' })).toContain('probably Latin-1 / Windows-1252');
  });

  it('edit_file changes ASCII text of a GBK file and keeps every other byte', async () => {
    await writeFile(join(ws.root, 'gbk-edit.ts'), GBK);
    const text = await one('edit_file', { path: 'gbk-edit.ts', old_text: 'const a = 1;', new_text: 'const a = 2;' });
    expect(text).toMatch(/^Edited gbk-edit\.ts: 1 replacement at line 2\./);
    expect(
      (await readFile(join(ws.root, 'gbk-edit.ts'))).equals(
        Buffer.from(GBK.toString('latin1').replace('a = 1', 'a = 2'), 'latin1'),
      ),
    ).toBe(true);
  });

  it('edit_file refuses non-ASCII text in a GBK file at the parameters stage and leaves it untouched', async () => {
    await writeFile(join(ws.root, 'gbk-refuse.ts'), GBK);
    const text = await one('edit_file', { path: 'gbk-refuse.ts', old_text: '// 中文注释', new_text: '// 注释' });
    expect(text).toMatch(/^\[parameters\] edit_file: .*not UTF-8 text \(probably GBK \(Chinese\)\).*left untouched/);
    expect((await readFile(join(ws.root, 'gbk-refuse.ts'))).equals(GBK)).toBe(true);
  });
});

describe('text UTF-8 cannot hold', () => {
  it('write_file and edit_file refuse a lone surrogate (a cut emoji) at the parameters stage; the file is untouched', async () => {
    // The model's JSON carries "\ud83d" alone: written as is, the file would get U+FFFD instead.
    await writeFile(join(ws.root, 'emoji.md'), 'smile 😀\n');
    const write = await one('write_file', { path: 'emoji-new.md', content: 'smile \ud83d\n' });
    expect(write).toMatch(/^\[parameters\] write_file: .*lone surrogate \(U\+D83D at character 6\)/);
    await expect(readFile(join(ws.root, 'emoji-new.md'))).rejects.toThrow(/ENOENT/);
    const edit = await one('edit_file', { path: 'emoji.md', old_text: 'smile', new_text: 'grin \ud83d' });
    expect(edit).toMatch(/^\[parameters\] edit_file: .*lone surrogate/);
    expect(await readFile(join(ws.root, 'emoji.md'), 'utf8')).toBe('smile 😀\n');
  });
});

describe('flush-left old_text against indented files (issue 13)', () => {
  it('a space-indented Python method keeps its indentation', async () => {
    await writeFile(join(ws.root, 'm.py'), 'class A:\n    def f(self):\n        return 1\n');
    const text = await one('edit_file', { path: 'm.py', old_text: 'return 1', new_text: 'value = 2\nreturn value' });
    expect(text).toMatch(/Tolerant match: new text re-indented to match the file\./);
    expect(await readFile(join(ws.root, 'm.py'), 'utf8')).toBe(
      'class A:\n    def f(self):\n        value = 2\n        return value\n',
    );
  });

  it('a tab-indented file with an indented new_text does not crash, and a flush-left one keeps the depth', async () => {
    await writeFile(join(ws.root, 'g.go'), 'func f() {\n\tif ok {\n\t\tdo()\n\t}\n}\n');
    const first = await one('edit_file', {
      path: 'g.go',
      old_text: 'if ok {\ndo()\n}',
      new_text: '    if ok {\n        do()\n        more()\n    }',
    });
    // Every line flush-left over lines at depths 1, 2, 1: this crashed with `Invalid count value: Infinity`.
    expect(first).not.toMatch(/Infinity/);
    expect(first).toMatch(/^\[parameters\] edit_file: old_text matches lines 2-4 of g\.go only when indentation is ignored/);
    const second = await one('edit_file', {
      path: 'g.go',
      old_text: 'if ok {\n    do()\n}',
      new_text: 'if ok {\n    do()\n    more()\n}',
    });
    expect(second).toMatch(/^Edited g\.go/);
    expect(await readFile(join(ws.root, 'g.go'), 'utf8')).toBe('func f() {\n\tif ok {\n\t\tdo()\n\t\tmore()\n\t}\n}\n');
    await one('edit_file', { path: 'g.go', old_text: 'more()', new_text: 'more()\nlast()' });
    expect(await readFile(join(ws.root, 'g.go'), 'utf8')).toBe(
      'func f() {\n\tif ok {\n\t\tdo()\n\t\tmore()\n\t\tlast()\n\t}\n}\n',
    );
  });

  it('refuses with an explanation instead of a silent de-indent', async () => {
    const before = 'def f():\n    if x:\n        go()\n';
    await writeFile(join(ws.root, 'r.py'), before);
    const text = await one('edit_file', { path: 'r.py', old_text: 'if x:\ngo()', new_text: 'if y:\ngo()\nstop()' });
    expect(text).toMatch(
      /^\[parameters\] edit_file: old_text matches lines 2-3 of r\.py only when indentation is ignored, and new_text cannot be re-indented to fit: .*different depths.*The edit was not applied\./,
    );
    expect(await readFile(join(ws.root, 'r.py'), 'utf8')).toBe(before);
  });
});

describe('edit_file size limit', () => {
  it('refuses a 1.5 GiB file from its size, at the parameters stage, with bounded memory', async () => {
    const path = join(ws.root, 'huge.log');
    await writeFile(path, 'x = 1\n');
    await truncate(path, 1.5 * 1024 ** 3);
    const rss = process.memoryUsage().rss;
    const text = await one('edit_file', { path: 'huge.log', old_text: 'x = 1', new_text: 'x = 2' });
    expect(text).toBe(
      '[parameters] edit_file: huge.log is over the 16.0 MB limit of edit_file; nothing was read or changed. Edit large files with execute (for example sed -i or a short script), or split the file.',
    );
    expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 1024 * 1024);
  });

  it('the limit is injectable', async () => {
    await writeFile(join(ws.root, 'small.txt'), 'a'.repeat(2000));
    const text = await one(
      'edit_file',
      { path: 'small.txt', old_text: 'aaa', new_text: 'b', replace_all: true },
      createFilesystemToolConfig({ limits: { editBytes: 1024 } }),
    );
    expect(text).toMatch(/^\[parameters\] edit_file: small\.txt is over the 1\.0 KB limit/);
  });
});

describe('grep through the tool', () => {
  it("prints a match inside another match's context once, as a match, and strips CRLF", async () => {
    await writeFile(join(ws.root, 'ctx.txt'), 'a\r\nhit1\r\nhit2\r\nb\r\n');
    const text = await one('grep', { pattern: 'hit', path: 'ctx.txt', context: 1 });
    expect(text).toBe(
      ['2 matching lines in 1 file for /hit/ in ctx.txt:', 'ctx.txt-1-a', 'ctx.txt:2:hit1', 'ctx.txt:3:hit2', 'ctx.txt-4-b'].join(
        '\n',
      ),
    );
  });

  it('a catastrophic regex in the JavaScript engine ends at the time bound with a note, not a hang', async () => {
    const slow = await createWorkspace({ isolation: 'off', ripgrepPath: false, searchTimeoutMs: 800 });
    try {
      await writeFile(join(slow.root, 'c.txt'), `${'a'.repeat(40)}!\n`.repeat(5));
      const run = await runSteps(filesystemToolConfig, slow.sandbox, calls(['g', 'grep', { pattern: '(a+)+$' }]));
      expect(run.seen('g').text).toBe(
        'No matches for /(a+)+$/.\n[Incomplete: the search stopped at its time bound of 800 ms; the matches found until then are shown. Narrow the pattern, path or glob, or simplify the pattern (nested repetition such as (a+)+ can take very long).]',
      );
    } finally {
      await slow.dispose();
    }
  });
});
