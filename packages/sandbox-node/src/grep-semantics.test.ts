// One grep semantics whichever engine runs (issue 13): the same case table against ripgrep and
// against the JavaScript engine, on one real workspace. The meaning is documented in
// packages/sandbox/README.md ("What glob patterns and grep mean").
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrepOptions, GrepResult } from '@aibuddy/sandbox';
import { createNodeSandbox, type NodeSandbox } from './node-sandbox.js';
// Needs rg: skipped with the reason where missing, required in CI (see system-tools.ts).
import { systemTool } from '@aibuddy/test-utils/system-tools';
const rg = systemTool('rg');

let root: string;
const engines = {} as Record<'ripgrep' | 'javascript', NodeSandbox>;

function put(path: string, content: string): void {
  const full = join(root, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, content);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'aibuddy-grep-semantics-'));
  // glob anchoring
  put('anchor/src/a.py', 'hit\n');
  put('anchor/sub/src/b.py', 'hit\n');
  put('anchor/sub/c.py', 'hit\n');
  put('anchor/sub/d.txt', 'hit\n');
  // ignore files, hidden files, node_modules
  put('ign/.gitignore', 'build/\n*.log\n');
  put('ign/kept.txt', 'hit\n');
  put('ign/build/out.txt', 'hit\n');
  put('ign/debug.log', 'hit\n');
  put('ign/deep/trace.log', 'hit\n');
  put('ign/deep/.gitignore', '!keep.log\n');
  put('ign/deep/keep.log', 'hit\n');
  put('ign/.hidden.txt', 'hit\n');
  put('ign/node_modules/pkg/index.js', 'hit\n');
  put('ign/other/.ignore', 'secret.txt\n');
  put('ign/other/secret.txt', 'hit\n');
  put('ign/other/open.txt', 'hit\n');
  // context merging
  put('ctx/f.txt', ['a', 'hit1', 'hit2', 'b', 'c', 'd', 'hit3', 'e'].join('\n') + '\n');
  // CRLF
  put('crlf/w.txt', 'one\r\nhit here\r\nthree\r\n');
  // a newline in a file name
  put('names/new\nline.txt', 'hit\n');
  put('names/plain.txt', 'hit\n');
  // glob and grep agree
  put('agree/x.py', 'hit\n');
  put('agree/pkg/y.py', 'hit\n');
  put('agree/pkg/deep/z.py', 'hit\n');
  put('agree/pkg/w.txt', 'hit\n');
  // hostile input
  put('hostile/catastrophic.txt', `${'a'.repeat(40)}!\n`.repeat(20));
  put(`hostile/${'a'.repeat(200)}`, 'hit\n');
  engines.ripgrep = await createNodeSandbox({ type: 'node', root, isolation: 'off', searchTimeoutMs: 1500 });
  engines.javascript = await createNodeSandbox({
    type: 'node',
    root,
    isolation: 'off',
    ripgrepPath: false,
    searchTimeoutMs: 1500,
  });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const paths = (r: GrepResult) => [...new Set(r.matches.map((m) => m.path))].sort();

interface Case {
  name: string;
  pattern: string;
  options: GrepOptions;
  check: (result: GrepResult) => void;
}

const cases: Case[] = [
  {
    name: 'a glob with "/" is anchored at path, not at the workspace root',
    pattern: 'hit',
    options: { path: 'anchor/sub', glob: 'src/*.py' },
    check: (r) => expect(paths(r)).toEqual(['anchor/sub/src/b.py']),
  },
  {
    name: 'a glob without "/" matches names at any depth below path',
    pattern: 'hit',
    options: { path: 'anchor/sub', glob: '*.py' },
    check: (r) => expect(paths(r)).toEqual(['anchor/sub/c.py', 'anchor/sub/src/b.py']),
  },
  {
    name: 'a leading "!" excludes',
    pattern: 'hit',
    options: { path: 'anchor/sub', glob: '!*.py' },
    check: (r) => expect(paths(r)).toEqual(['anchor/sub/d.txt']),
  },
  {
    name: '.gitignore (without a .git folder), nested negations and .ignore are honoured; hidden files and node_modules are skipped',
    pattern: 'hit',
    options: { path: 'ign' },
    check: (r) => expect(paths(r)).toEqual(['ign/deep/keep.log', 'ign/kept.txt', 'ign/other/open.txt']),
  },
  {
    name: 'ignore files of the folders above path apply too',
    pattern: 'hit',
    options: { path: 'ign/deep' },
    check: (r) => expect(paths(r)).toEqual(['ign/deep/keep.log']),
  },
  {
    name: 'a file given as path is searched even when ignored',
    pattern: 'hit',
    options: { path: 'ign/debug.log' },
    check: (r) => expect(paths(r)).toEqual(['ign/debug.log']),
  },
  {
    name: "context is merged like ripgrep: a match inside another match's context is printed once, as a match",
    pattern: 'hit',
    options: { path: 'ctx', context: 2 },
    check: (r) =>
      expect(r.matches).toEqual([
        { path: 'ctx/f.txt', line: 2, text: 'hit1', before: [{ line: 1, text: 'a' }], after: [] },
        {
          path: 'ctx/f.txt',
          line: 3,
          text: 'hit2',
          before: [],
          after: [
            { line: 4, text: 'b' },
            { line: 5, text: 'c' },
          ],
        },
        { path: 'ctx/f.txt', line: 7, text: 'hit3', before: [{ line: 6, text: 'd' }], after: [{ line: 8, text: 'e' }] },
      ]),
  },
  {
    name: 'CRLF: the \\r is stripped from lines and from context, and $ matches before it',
    pattern: 'here$',
    options: { path: 'crlf', context: 1 },
    check: (r) =>
      expect(r.matches).toEqual([
        {
          path: 'crlf/w.txt',
          line: 2,
          text: 'hit here',
          before: [{ line: 1, text: 'one' }],
          after: [{ line: 3, text: 'three' }],
        },
      ]),
  },
  {
    name: 'a newline in a file name keeps the name whole',
    pattern: 'hit',
    options: { path: 'names' },
    check: (r) => expect(paths(r)).toEqual(['names/new\nline.txt', 'names/plain.txt']),
  },
  {
    name: 'the match limit cuts and says so',
    pattern: 'hit',
    options: { path: 'anchor', limit: 2 },
    check: (r) => {
      expect(r.matches).toHaveLength(2);
      expect(r.truncated).toBe(true);
    },
  },
  {
    name: 'the glob ReDoS pattern as a filter answers at once',
    pattern: 'hit',
    options: { path: 'hostile', glob: '**/*a*a*a*a*a*a*a*a*a*a*a*b' },
    check: (r) => expect(r.matches).toEqual([]),
  },
];

for (const engine of ['ripgrep', 'javascript'] as const) {
  describe.skipIf(engine === 'ripgrep' && rg.skip)(`grep semantics (${engine})`, () => {
    for (const c of cases) {
      it(c.name, async () => {
        const result = await engines[engine].grep(c.pattern, c.options);
        expect(result.engine).toBe(engine);
        c.check(result);
      });
    }

    it('the glob operation answers the ReDoS pattern against a long name at once', async () => {
      const result = await engines[engine].glob('**/*a*a*a*a*a*a*a*a*a*a*a*b', { path: 'hostile' });
      expect(result.files).toEqual([]);
      expect((await engines[engine].glob('**/*a*a*a*a*a*a*a*a*a*a*a*a', { path: 'hostile' })).files).toEqual([
        `hostile/${'a'.repeat(200)}`,
      ]);
    });

    it('glob "*.py" and grep\'s glob "*.py" mean the same files', async () => {
      const globbed = (await engines[engine].glob('*.py', { path: 'agree' })).files;
      const grepped = paths(await engines[engine].grep('hit', { path: 'agree', glob: '*.py' }));
      expect(globbed).toEqual(['agree/pkg/deep/z.py', 'agree/pkg/y.py', 'agree/x.py']);
      expect(grepped).toEqual(globbed);
    });

    it('a catastrophic regex (a+)+$ returns within the bound while the event loop keeps ticking', async () => {
      let ticks = 0;
      const timer = setInterval(() => ticks++, 10);
      const started = Date.now();
      try {
        const result = await engines[engine].grep('(a+)+$', { path: 'hostile/catastrophic.txt' });
        expect(Date.now() - started).toBeLessThan(1500 + 2500);
        if (engine === 'javascript') {
          expect(result.truncated).toBe(true);
          expect(result.stopped).toMatch(/time bound of 1500 ms/);
          expect(ticks).toBeGreaterThan(20);
        } else {
          expect(result.matches).toEqual([]); // ripgrep's engine is linear: it simply finishes
        }
      } finally {
        clearInterval(timer);
      }
    });
  });
}

describe('which patterns skip the worker', () => {
  it('only patterns without quantifiers, alternation or backreferences run on the main thread', async () => {
    const { cannotBacktrack } = await import('./grep-worker.js');
    for (const safe of ['TODO', 'function foo\\(', '^import', '[A-Z]ebra$', 'a\\.b'])
      expect(cannotBacktrack(safe), safe).toBe(true);
    for (const risky of ['(a+)+$', 'a*', 'x?', 'a{2,}', 'a|b', '(?:x)', '(a)\\1', '(?<n>a)\\k<n>'])
      expect(cannotBacktrack(risky), risky).toBe(false);
  });
});
