import { createHash } from 'node:crypto';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, createWorkspace, runSteps, withActor } from '@aibuddy/tool-harness';
import type { Workspace } from '@aibuddy/tool-harness';
import { filesystemToolConfig } from './filesystem-config.js';

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

let ws: Workspace;
beforeAll(async () => {
  ws = await createWorkspace();
});
afterAll(async () => {
  await ws.dispose();
});

async function put(path: string, content: string) {
  await writeFile(join(ws.root, path), content);
}
async function disk(path: string) {
  return readFile(join(ws.root, path), 'utf8');
}
async function edit(path: string, input: Record<string, unknown>, id = 'e') {
  const run = await runSteps(filesystemToolConfig, ws.sandbox, calls([id, 'edit_file', { path, ...input }]));
  return run.seen(id);
}

describe('edit_file', () => {
  it('replaces a unique exact match and returns the edited region with line numbers, size, lines and hash', async () => {
    await put(
      'app.ts',
      'const a = 1;\nconst b = 2;\nconst c = 3;\nconst d = 4;\nconst e = 5;\nconst f = 6;\nconst g = 7;\nconst h = 8;\n',
    );
    const seen = await edit('app.ts', { old_text: 'const d = 4;', new_text: 'const d = 40;\nconst d2 = 41;' });
    const after = await readFile(join(ws.root, 'app.ts'));
    expect(after.toString()).toContain('const c = 3;\nconst d = 40;\nconst d2 = 41;\nconst e = 5;');
    expect(seen.text).toBe(
      [
        'Edited app.ts: 1 replacement at line 4.',
        `Now ${after.length} B (${after.length} bytes), 9 lines, sha256 ${sha(after).slice(0, 16)}; verified by reading it back.`,
        '     1\tconst a = 1;',
        '     2\tconst b = 2;',
        '     3\tconst c = 3;',
        '     4\tconst d = 40;',
        '     5\tconst d2 = 41;',
        '     6\tconst e = 5;',
        '     7\tconst f = 6;',
        '     8\tconst g = 7;',
      ].join('\n'),
    );
  });

  it('refuses several matches, naming their lines; replace_all changes every one', async () => {
    await put('dup.ts', 'log("x");\nother();\nlog("x");\nlog("x");\n');
    const refused = await edit('dup.ts', { old_text: 'log("x");', new_text: 'log("y");' });
    expect(refused.text).toBe(
      '[parameters] edit_file: old_text occurs 3 times in dup.ts (at lines 1, 3, 4); the edit was not applied. Include more surrounding lines in old_text so it is unique, or set replace_all to true to change every occurrence.',
    );
    expect(await disk('dup.ts')).toBe('log("x");\nother();\nlog("x");\nlog("x");\n');
    const all = await edit('dup.ts', { old_text: 'log("x");', new_text: 'log("y");', replace_all: true });
    expect(all.text).toMatch(/^Edited dup\.ts: 3 replacements at lines 1, 3, 4\./);
    expect(await disk('dup.ts')).toBe('log("y");\nother();\nlog("y");\nlog("y");\n');
  });

  it('edits a CRLF file with an LF old_text and keeps CRLF line endings', async () => {
    await put('win.txt', 'alpha\r\nbeta\r\ngamma\r\n');
    const seen = await edit('win.txt', { old_text: 'alpha\nbeta', new_text: 'ALPHA\nBETA\nextra' });
    expect(seen.text).toMatch(/^Edited win\.txt: 1 replacement at line 1\./);
    expect(await disk('win.txt')).toBe('ALPHA\r\nBETA\r\nextra\r\ngamma\r\n');
    expect(seen.text).toContain(`sha256 ${sha('ALPHA\r\nBETA\r\nextra\r\ngamma\r\n').slice(0, 16)}`);
  });

  it('matches a CRLF old_text against an LF file', async () => {
    await put('unix.txt', 'one\ntwo\nthree\n');
    const seen = await edit('unix.txt', { old_text: 'one\r\ntwo', new_text: 'uno\r\ndos' });
    expect(seen.text).toMatch(/Tolerant match: CRLF line endings in old_text matched LF in the file\./);
    expect(await disk('unix.txt')).toBe('uno\ndos\nthree\n');
  });

  it('matches spaces against tab indentation when unique, and re-indents the new text with tabs', async () => {
    await put('tabs.go', 'func main() {\n\tif ok {\n\t\tprintln("a")\n\t}\n}\n');
    const seen = await edit('tabs.go', {
      old_text: '    if ok {\n        println("a")\n    }',
      new_text: '    if ok {\n        println("b")\n        println("c")\n    }',
    });
    expect(seen.text).toMatch(
      /Tolerant match: indentation and whitespace differences ignored; new text re-indented to match the file\./,
    );
    expect(await disk('tabs.go')).toBe('func main() {\n\tif ok {\n\t\tprintln("b")\n\t\tprintln("c")\n\t}\n}\n');
  });

  it('matches tabs against space indentation, and a different indentation depth', async () => {
    await put('spaces.py', 'def f():\n    if x:\n        return 1\n    return 2\n');
    const tabs = await edit('spaces.py', { old_text: '\tif x:\n\t\treturn 1', new_text: '\tif x:\n\t\treturn 10' });
    expect(tabs.text).toMatch(/^Edited spaces\.py: 1 replacement at line 2\. Tolerant match:/);
    expect(await disk('spaces.py')).toBe('def f():\n    if x:\n        return 10\n    return 2\n');
    const shallow = await edit('spaces.py', { old_text: 'if x:\n    return 10', new_text: 'if y:\n    return 11' });
    expect(shallow.text).toMatch(/re-indented to match the file/);
    expect(await disk('spaces.py')).toBe('def f():\n    if y:\n        return 11\n    return 2\n');
  });

  it('matches plain spaces against non-breaking spaces in the file (and the reverse)', async () => {
    await put('nbsp.md', 'Price:\u00a0100\u00a0EUR\nOther line\n');
    const seen = await edit('nbsp.md', { old_text: 'Price: 100 EUR', new_text: 'Price: 120 EUR' });
    expect(seen.text).toMatch(/Tolerant match: Unicode spaces \(for example non-breaking spaces\) treated as plain spaces\./);
    expect(await disk('nbsp.md')).toBe('Price: 120 EUR\nOther line\n');
    await put('plain.md', 'Total: 5 items\n');
    const reverse = await edit('plain.md', { old_text: 'Total:\u00a05\u202fitems', new_text: 'Total: 6 items' });
    expect(reverse.text).toMatch(/^Edited plain\.md: 1 replacement at line 1\. Tolerant match:/);
    expect(await disk('plain.md')).toBe('Total: 6 items\n');
  });

  it('ignores trailing whitespace in the file', async () => {
    await put('trail.js', 'function a() {   \n  return 1;\t\n}\n');
    const seen = await edit('trail.js', {
      old_text: 'function a() {\n  return 1;\n}',
      new_text: 'function a() {\n  return 2;\n}',
    });
    expect(seen.text).toMatch(/Tolerant match: trailing whitespace and Unicode spaces ignored\./);
    expect(await disk('trail.js')).toBe('function a() {\n  return 2;\n}\n');
  });

  it('combines tolerances: a CRLF file with trailing spaces and tab indentation, edited with LF, spaces and no trailing spaces', async () => {
    await put('mixed.cs', 'class A {\r\n\tvoid M() {  \r\n\t\tRun();\r\n\t}\r\n}\r\n');
    const seen = await edit('mixed.cs', {
      old_text: '    void M() {\n        Run();\n    }',
      new_text: '    void M() {\n        Run(1);\n    }',
    });
    expect(seen.text).toMatch(
      /^Edited mixed\.cs: 1 replacement at line 2\. Tolerant match: indentation and whitespace differences ignored; new text re-indented to match the file\./,
    );
    expect(await disk('mixed.cs')).toBe('class A {\r\n\tvoid M() {\r\n\t\tRun(1);\r\n\t}\r\n}\r\n');
  });

  it('refuses a tolerant match that is not unique, and changes nothing', async () => {
    await put('twins.py', 'if a:\n    go()\nif a:\n\tgo()\n');
    const seen = await edit('twins.py', { old_text: 'if a:\n  go()', new_text: 'if b:\n  go()' });
    expect(seen.text).toBe(
      '[parameters] edit_file: old_text occurs 2 times in twins.py when whitespace differences are ignored (at lines 1, 3); the edit was not applied. Copy old_text exactly from read_file output, with enough surrounding lines to make it unique.',
    );
    expect(await disk('twins.py')).toBe('if a:\n    go()\nif a:\n\tgo()\n');
  });

  it('shows the closest candidate lines when old_text is not found', async () => {
    await put('near.ts', 'import x from "x";\n\nexport function total(items) {\n  return items.reduce((a, b) => a + b, 0);\n}\n');
    const seen = await edit('near.ts', {
      old_text: 'export function totals(items) {\n  return items.reduce((a, b) => a + b);',
      new_text: 'nope',
    });
    expect(seen.text).toMatch(
      /^\[parameters\] edit_file: old_text was not found in near\.ts \(not even ignoring whitespace, line endings and Unicode spaces\); the edit was not applied\.\nClosest candidates in the file:\nlines 3-4 \(\d+% similar\):\n {5}3\texport function total\(items\) \{\n {5}4\t {2}return items\.reduce\(\(a, b\) => a \+ b, 0\);\n {2}first difference at line 3: old_text has "export function totals\(items\) \{", the file has "export function total\(items\) \{"/,
    );
    expect(seen.text).toMatch(/Read the file again and copy old_text exactly from it \(without the line-number prefix\)\.$/);
    expect(await disk('near.ts')).toContain('export function total(items)');
  });

  it('refuses to edit a file that changed on disk since the agent read it, then edits after a fresh read', async () => {
    await put('shared.txt', 'version = 1\nname = "app"\n');
    let reads = 0;
    // A person edits the file right after the agent's first read.
    const sandbox = withActor(ws.sandbox, 'readFile', async (path) => {
      if (path === 'shared.txt' && reads++ === 0) await appendFile(join(ws.root, 'shared.txt'), 'owner = "them"\n');
    });
    const run = await runSteps(
      filesystemToolConfig,
      sandbox,
      calls(
        ['r1', 'read_file', { path: 'shared.txt' }],
        ['e1', 'edit_file', { path: 'shared.txt', old_text: 'version = 1', new_text: 'version = 2' }],
        ['r2', 'read_file', { path: 'shared.txt' }],
        ['e2', 'edit_file', { path: 'shared.txt', old_text: 'version = 1', new_text: 'version = 2' }],
      ),
    );
    expect(run.seen('e1').text).toMatch(
      /^\[parameters\] edit_file: shared\.txt changed on disk since you last read it \(its (modification time|size) changed.*\); the edit was not applied\. Read it again with read_file and redo the edit against the current text\.$/,
    );
    expect(run.seen('e2').text).toMatch(/^Edited shared\.txt: 1 replacement at line 1\./);
    expect(await disk('shared.txt')).toBe('version = 2\nname = "app"\nowner = "them"\n');
  });

  it('lets the agent edit the same file twice in a row (its own edits are not "changes on disk")', async () => {
    await put('twice.txt', 'a\nb\n');
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(
        ['r', 'read_file', { path: 'twice.txt' }],
        ['e1', 'edit_file', { path: 'twice.txt', old_text: 'a', new_text: 'A' }],
        ['e2', 'edit_file', { path: 'twice.txt', old_text: 'b', new_text: 'B' }],
      ),
    );
    expect(run.seen('e2').text).toMatch(/^Edited twice\.txt/);
    expect(await disk('twice.txt')).toBe('A\nB\n');
  });

  it('applies parallel edits of one file in one step one after the other, each verified', async () => {
    await put('parallel.ts', 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
    const run = await runSteps(filesystemToolConfig, ws.sandbox, [
      {
        toolCalls: [
          {
            id: 'p1',
            toolName: 'edit_file',
            input: { path: 'parallel.ts', old_text: 'const a = 1;', new_text: 'const a = 10;' },
          },
          {
            id: 'p2',
            toolName: 'edit_file',
            input: { path: './parallel.ts', old_text: 'const b = 2;', new_text: 'const b = 20;' },
          },
          {
            id: 'p3',
            toolName: 'edit_file',
            input: { path: 'parallel.ts', old_text: 'const c = 3;', new_text: 'const c = 30;' },
          },
        ],
      },
    ]);
    for (const id of ['p1', 'p2', 'p3']) expect(run.seen(id).text).toMatch(/^Edited parallel\.ts: 1 replacement/);
    expect(await disk('parallel.ts')).toBe('const a = 10;\nconst b = 20;\nconst c = 30;\n');
  });

  it('treats $& and $1 in new_text literally, and keeps a missing trailing newline', async () => {
    await put('dollar.txt', 'price = X');
    await edit('dollar.txt', { old_text: 'X', new_text: '$& and $1' });
    expect(await disk('dollar.txt')).toBe('price = $& and $1');
  });

  it('bounds the edited-region view and says how to see the rest', async () => {
    await put('many.txt', Array.from({ length: 200 }, (_, i) => (i % 10 === 0 ? 'TODO' : `line ${i + 1}`)).join('\n') + '\n');
    const seen = await edit('many.txt', { old_text: 'TODO', new_text: 'DONE', replace_all: true });
    expect(seen.text).toMatch(/^Edited many\.txt: 20 replacements at lines 1, 11, 21,/);
    const numbered = seen.text.split('\n').filter((l) => /^\s+\d+\t/.test(l));
    expect(numbered.length).toBeLessThanOrEqual(60);
    expect(seen.text).toMatch(/\[\d+ more edited regions not shown; read_file to see them\.\]$/);
    expect((await disk('many.txt')).match(/DONE/g)).toHaveLength(20);
  });

  it('refuses no-op and empty edits, missing files and paths outside the workspace', async () => {
    await put('same.txt', 'x\n');
    const run = await runSteps(
      filesystemToolConfig,
      ws.sandbox,
      calls(
        ['same', 'edit_file', { path: 'same.txt', old_text: 'x', new_text: 'x' }],
        ['empty', 'edit_file', { path: 'same.txt', old_text: '', new_text: 'y' }],
        ['missing', 'edit_file', { path: 'nope.txt', old_text: 'x', new_text: 'y' }],
        ['out', 'edit_file', { path: '../x.txt', old_text: 'x', new_text: 'y' }],
      ),
    );
    expect(run.seen('same').text).toBe(
      '[parameters] edit_file: old_text and new_text are the same; nothing would change. Give the changed text as new_text.',
    );
    expect(run.seen('empty').text).toMatch(/^\[parameters\] edit_file: invalid input: old_text: old_text is empty/);
    expect(run.seen('missing').text).toMatch(/^\[parameters\] edit_file: .*Check the path/);
    expect(run.seen('out').text).toMatch(/^\[parameters\] edit_file: .*must stay inside it/);
  });

  it('fails at the verification stage when the file read back is not the expected result (a concurrent writer)', async () => {
    await put('raced.txt', 'one\ntwo\n');
    const racing = withActor(ws.sandbox, 'editFile', async (path) => {
      await appendFile(join(ws.root, path), 'interference\n');
    });
    const run = await runSteps(
      filesystemToolConfig,
      racing,
      calls(['e', 'edit_file', { path: 'raced.txt', old_text: 'one', new_text: 'uno' }]),
    );
    expect(run.seen('e').text).toMatch(
      /^\[verification\] edit_file: edit of raced\.txt could not be verified: the file read back \(sha256 [0-9a-f]{16}, 21 bytes\) is not the expected result/,
    );
  });

  it('edits a file with over-long lines exactly, without tolerant matching', async () => {
    await put('minified.js', `var a=1;${'x'.repeat(3000)}\nvar b=2;\n`);
    const seen = await edit('minified.js', { old_text: 'var b=2;', new_text: 'var b=3;' });
    expect(seen.text).toMatch(/^Edited minified\.js: 1 replacement at line 2\./);
    expect(await disk('minified.js')).toBe(`var a=1;${'x'.repeat(3000)}\nvar b=3;\n`);
  });
});
