import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, createWorkspace, runSteps } from '@aibuddy/tool-harness';
import type { Workspace } from '@aibuddy/tool-harness';
import { createFilesystemToolConfig, filesystemToolConfig } from './filesystem-config.js';

let ws: Workspace;
beforeAll(async () => {
  ws = await createWorkspace();
  await mkdir(join(ws.root, 'src/lib'), { recursive: true });
  await writeFile(join(ws.root, 'src/a.ts'), 'export const a = 1;\nexport function hello() {\n  return "hello";\n}\n');
  await writeFile(join(ws.root, 'src/b.ts'), 'import { a } from "./a";\nconst HELLO = a;\n');
  await writeFile(join(ws.root, 'src/lib/c.js'), 'module.exports = "hello world";\n');
  await writeFile(join(ws.root, 'README.md'), '# Project\n\nSay hello.\n');
  await writeFile(join(ws.root, 'crlf.txt'), 'one\r\ntwo\r\n');
  await writeFile(join(ws.root, 'long.txt'), Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  await writeFile(join(ws.root, 'wide.txt'), `${'x'.repeat(5000)}\nshort\n`);
  await writeFile(join(ws.root, 'blob.bin'), Buffer.from([0, 1, 2, 3, 0, 255]));
  await writeFile(join(ws.root, 'empty.txt'), '');
  for (let i = 0; i < 12; i++)
    await writeFile(join(ws.root, `src/lib/gen-${String(i).padStart(2, '0')}.ts`), `export const hello${i} = "hello";\n`);
  await symlink('/etc', join(ws.root, 'escape'));
});
afterAll(async () => {
  await ws.dispose();
});

describe('ls', () => {
  it('lists a folder with types and sizes', async () => {
    const run = await runSteps(filesystemToolConfig, ws.sandbox, calls(['root', 'ls', {}], ['src', 'ls', { path: 'src' }]));
    const root = run.seen('root').text;
    expect(root.split('\n')[0]).toMatch(/^\(workspace root\) — \d+ entries$/);
    expect(root).toContain('\nsrc/\n');
    expect(root).toContain('README.md  22 B');
    expect(root).toContain('escape@ (symlink)');
    expect(run.seen('src').text).toMatch(/^src\/ — 3 entries\na\.ts {2}\d+ B\nb\.ts {2}\d+ B\nlib\/$/);
  });

  it('says when the listing was cut and how to see more', async () => {
    const config = createFilesystemToolConfig({ limits: { lsEntries: 5 } });
    const run = await runSteps(config, ws.sandbox, calls(['cut', 'ls', { path: 'src/lib' }]));
    const text = run.seen('cut').text;
    expect(text.split('\n')[0]).toBe('src/lib/ — 5+ entries');
    expect(text).toMatch(/\[Listing cut at 5 entries; more exist\. List a subfolder, or use glob with a narrower pattern\.\]$/);
  });

  it('refuses paths outside the workspace and files, at the parameters stage', async () => {
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(
        ['up', 'ls', { path: '..' }],
        ['link', 'ls', { path: 'escape' }],
        ['file', 'ls', { path: 'README.md' }],
        ['none', 'ls', { path: 'nope' }],
      ),
    );
    expect(run.seen('up').text).toMatch(/^\[parameters\] ls: .*Paths are relative to the workspace root and must stay inside it/);
    expect(run.seen('link').text).toMatch(/^\[parameters\] ls: /);
    expect(run.seen('file').text).toMatch(/^\[parameters\] ls: .*This is a file: use read_file to read it\.$/);
    expect(run.seen('none').text).toMatch(/^\[parameters\] ls: .*Check the path/);
  });
});

describe('read_file', () => {
  it('returns numbered lines with a header', async () => {
    const run = await runSteps(filesystemToolConfig, ws.sandbox, calls(['a', 'read_file', { path: 'src/a.ts' }]));
    expect(run.seen('a').text).toBe(
      'src/a.ts — lines 1-4 of 4 (66 B)\n     1\texport const a = 1;\n     2\texport function hello() {\n     3\t  return "hello";\n     4\t}',
    );
  });

  it('reads a window with offset and limit and says where to continue', async () => {
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(
        ['w', 'read_file', { path: 'long.txt', offset: 10, limit: 5 }],
        ['end', 'read_file', { path: 'long.txt', offset: 48 }],
      ),
    );
    const text = run.seen('w').text;
    expect(text.split('\n')[0]).toBe('long.txt — lines 10-14 (391 B)');
    expect(text).toContain('    10\tline 10\n');
    expect(text).toContain('    14\tline 14\n');
    expect(text).not.toContain('line 15');
    expect(text).toMatch(
      /\[Cut: the line limit of one read was reached; lines from 15 on are not shown\. Call read_file with offset=15 to continue, or grep for what you need\.\]$/,
    );
    expect(run.seen('end').text).toMatch(/^long\.txt — lines 48-50 of 50/);
    expect(run.seen('end').text).not.toContain('[Cut');
  });

  it('uses the default line limit and the character limit, cutting at whole lines', async () => {
    const config = createFilesystemToolConfig({ limits: { readLines: 20, readChars: 60 } });
    const run = await runSteps(config, ws.sandbox, calls(['lines', 'read_file', { path: 'long.txt' }]));
    const text = run.seen('lines').text;
    // 60 characters hold "line 1".."line 8" (6-7 characters plus a newline each): lines 1-8.
    expect(text.split('\n')[0]).toBe('long.txt — lines 1-8 (391 B)');
    expect(text).toMatch(
      /\[Cut: the character limit of one read was reached; lines from 9 on are not shown\. Call read_file with offset=9 to continue/,
    );
  });

  it('marks over-long lines and says how to see them', async () => {
    const run = await runSteps(filesystemToolConfig, ws.sandbox, calls(['wide', 'read_file', { path: 'wide.txt' }]));
    const text = run.seen('wide').text;
    expect(text).toContain('[line 1 cut: 5000 bytes long');
    expect(text).toMatch(
      /\[Line 1 too long and cut \(marked in place\); use execute \(for example cut -c or awk\) to see it whole\.\]$/,
    );
    expect(text).toContain('     2\tshort');
  });

  it('reports CRLF files, empty files and offsets past the end', async () => {
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(
        ['crlf', 'read_file', { path: 'crlf.txt' }],
        ['empty', 'read_file', { path: 'empty.txt' }],
        ['past', 'read_file', { path: 'src/a.ts', offset: 99 }],
      ),
    );
    expect(run.seen('crlf').text).toBe('crlf.txt — lines 1-2 of 2 (10 B, CRLF line endings)\n     1\tone\n     2\ttwo');
    expect(run.seen('empty').text).toBe('empty.txt — empty file (0 bytes)');
    expect(run.seen('past').text).toBe(
      'src/a.ts — no lines from offset 99: the file has 4 lines. Call read_file with a smaller offset.',
    );
  });

  it('refuses bad input and paths with clear errors', async () => {
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(
        ['dir', 'read_file', { path: 'src' }],
        ['missing', 'read_file', { path: 'nope.txt' }],
        ['outside', 'read_file', { path: '../../etc/passwd' }],
        ['abs', 'read_file', { path: '/etc/passwd' }],
        ['link', 'read_file', { path: 'escape/passwd' }],
        ['bin', 'read_file', { path: 'blob.bin' }],
        ['zero', 'read_file', { path: 'src/a.ts', offset: 0 }],
        ['huge', 'read_file', { path: 'src/a.ts', limit: 100000 }],
      ),
    );
    expect(run.seen('dir').text).toMatch(/^\[parameters\] read_file: .*use ls to list it/);
    expect(run.seen('missing').text).toMatch(/^\[parameters\] read_file: .*Check the path/);
    for (const id of ['outside', 'abs', 'link'])
      expect(run.seen(id).text).toMatch(/^\[parameters\] read_file: .*must stay inside it/);
    expect(run.seen('bin').text).toMatch(/^\[parameters\] read_file: .*Binary files cannot be read/);
    expect(run.seen('zero').text).toMatch(/^\[parameters\] read_file: invalid input: offset: offset is 1-based/);
    expect(run.seen('huge').text).toMatch(/^\[parameters\] read_file: invalid input: limit: limit is at most 5000 lines/);
  });
});

describe('glob', () => {
  it('finds files by pattern, under a path', async () => {
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(['ts', 'glob', { pattern: './*.ts', path: 'src' }], ['none', 'glob', { pattern: '**/*.rs' }]),
    );
    expect(run.seen('ts').text).toBe('2 files match ./*.ts under src:\nsrc/a.ts\nsrc/b.ts');
    expect(run.seen('none').text).toBe('No files match **/*.rs.');
  });

  it('says when matches were cut and how to narrow', async () => {
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(['cut', 'glob', { pattern: '**/*.ts', limit: 4 }], ['max', 'glob', { pattern: '**', limit: 1_000_000 }]),
    );
    const text = run.seen('cut').text;
    expect(text.split('\n')).toHaveLength(6);
    expect(text.split('\n')[0]).toBe('4+ files match **/*.ts:');
    expect(text).toMatch(
      /\[Cut at 4 files; more match\. Use a narrower pattern or path \(or a larger limit\) to see the rest\.\]$/,
    );
    expect(run.seen('max').text).toMatch(/^\[parameters\] glob: invalid input: limit: limit is at most 2000/);
  });
});

describe('grep', () => {
  it('shows matching lines with paths and line numbers, and context lines', async () => {
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(
        ['m', 'grep', { pattern: 'hello', path: 'src', glob: '*.ts' }],
        ['ctx', 'grep', { pattern: 'return', context: 1, path: 'src/a.ts' }],
      ),
    );
    const text = run.seen('m').text;
    expect(text.split('\n')[0]).toMatch(/^14 matching lines in 13 files for \/hello\/ in src \(files matching \*\.ts\):$/);
    expect(text).toContain('src/a.ts:2:export function hello() {');
    expect(text).toContain('src/a.ts:3:  return "hello";');
    expect(text).not.toContain('c.js');
    expect(run.seen('ctx').text).toBe(
      '1 matching lines in 1 file for /return/ in src/a.ts:\nsrc/a.ts-2-export function hello() {\nsrc/a.ts:3:  return "hello";\nsrc/a.ts-4-}',
    );
  });

  it('lists files or counts per file', async () => {
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(
        ['files', 'grep', { pattern: 'hello', output_mode: 'files_with_matches', path: 'src', glob: '[ab].ts' }],
        ['count', 'grep', { pattern: 'HELLO', ignore_case: true, output_mode: 'count', path: 'src', glob: '[ab].ts' }],
      ),
    );
    expect(run.seen('files').text).toBe('1 files match /hello/ in src (files matching [ab].ts):\nsrc/a.ts');
    expect(run.seen('count').text).toBe(
      '3 matches in 2 files for /HELLO/ in src (files matching [ab].ts):\nsrc/a.ts: 2\nsrc/b.ts: 1',
    );
  });

  it('says when results were cut by the limit or the character budget', async () => {
    const small = createFilesystemToolConfig({ limits: { grepChars: 200 } });
    const run = await runSteps(
      small,
      ws.sandbox,
      calls(['lim', 'grep', { pattern: 'hello', limit: 3 }], ['chars', 'grep', { pattern: 'hello' }]),
    );
    const lim = run.seen('lim').text;
    expect(lim.split('\n')[0]).toMatch(/^3\+ matching lines/);
    expect(lim).toMatch(
      /\[More matches exist beyond the limit of 3\. Narrow the pattern, path or glob, or use output_mode "count" to see where they are\.\]$/,
    );
    const chars = run.seen('chars').text;
    expect(chars).toMatch(
      /\[Output cut at 200 characters after \d+ of 16 matches\. Narrow the pattern, path or glob, or use output_mode "files_with_matches"\.\]/,
    );
    expect(chars.length).toBeLessThan(500);
  });

  it('clips very long matching lines and refuses too much context', async () => {
    await writeFile(join(ws.root, 'minified.js'), `var hello=1;${'y'.repeat(1000)}\n`);
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(['clip', 'grep', { pattern: 'var hello', path: 'minified.js' }], ['ctx', 'grep', { pattern: 'x', context: 11 }]),
    );
    expect(run.seen('clip').text).toContain(`minified.js:1:var hello=1;${'y'.repeat(388)}… [+612 characters]`);
    expect(run.seen('ctx').text).toMatch(/^\[parameters\] grep: invalid input: context: context is at most 10 lines\./);
  });

  it('refuses a broken regular expression and paths outside the workspace', async () => {
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(
        ['re', 'grep', { pattern: '(unclosed' }],
        ['out', 'grep', { pattern: 'x', path: '../' }],
        ['none', 'grep', { pattern: 'zzzz-not-there' }],
      ),
    );
    expect(run.seen('re').text).toMatch(/^\[parameters\] grep: /);
    expect(run.seen('out').text).toMatch(/^\[parameters\] grep: .*must stay inside it/);
    expect(run.seen('none').text).toBe('No matches for /zzzz-not-there/.');
  });
});
