import { describe, expect, it } from 'vitest';
import { compileGlob } from './glob-pattern.js';

const cases: [string, string[], string[]][] = [
  // No slash: the name at any depth (ripgrep --glob / .gitignore meaning).
  ['*.ts', ['a.ts', 'b.test.ts', 'src/a.ts', 'src/deep/b.ts'], ['a.tsx', '.hidden.ts', 'src/.hidden.ts', 'a.ts/x']],
  ['**/*.ts', ['a.ts', 'src/a.ts', 'src/deep/b.ts'], ['a.js', '.git/x.ts', 'src/.cache/x.ts']],
  ['src/**', ['src/a', 'src/b/c'], ['lib/a', 'lib/src/a']],
  ['src/*.ts', ['src/a.ts'], ['src/b/a.ts', 'lib/src/a.ts']],
  ['/top.md', ['top.md'], ['sub/top.md']],
  ['./top.md', ['top.md'], ['sub/top.md']],
  ['src/**/index.{ts,js}', ['src/index.ts', 'src/a/index.js'], ['src/index.tsx', 'index.ts']],
  ['{src,lib}/**/*.{ts,tsx}', ['src/a.ts', 'lib/x/y.tsx'], ['test/a.ts']],
  ['file?.md', ['file1.md', 'fileA.md', 'docs/file2.md'], ['file10.md', 'file/.md']],
  ['[ab]*.txt', ['a1.txt', 'b.txt'], ['c.txt']],
  ['[!ab]*.txt', ['c.txt'], ['a.txt']],
  ['[a-c]x', ['bx'], ['dx']],
  ['.github/**/*.yml', ['.github/workflows/ci.yml'], ['github/ci.yml']],
  ['.env*', ['.env', '.env.local', 'app/.env'], ['env']],
  ['a+b(c).txt', ['a+b(c).txt'], ['aab(c).txt']],
  ['\\*.txt', ['*.txt'], ['a.txt']],
  ['a**b', ['ab', 'axxb'], ['a/b']],
  ['docs/', ['docs/a.md', 'docs/x/y.md'], ['other/a.md']],
];

describe('compileGlob', () => {
  for (const [pattern, yes, no] of cases) {
    it(pattern, () => {
      const glob = compileGlob(pattern);
      for (const path of yes) expect(glob.test(path), `${pattern} should match ${path}`).toBe(true);
      for (const path of no) expect(glob.test(path), `${pattern} should not match ${path}`).toBe(false);
    });
  }

  it('refuses empty, unbalanced, too long and exploding patterns', () => {
    expect(() => compileGlob('')).toThrow(/empty/);
    expect(() => compileGlob('{a,b')).toThrow(/unbalanced/);
    expect(() => compileGlob('a'.repeat(1001))).toThrow(/longer than 1,000/);
    expect(() => compileGlob('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}')).toThrow(/more than 256 alternatives/);
  });

  // Issue 13: this pattern against a long name froze the process for minutes with the RegExp
  // translation. The matcher is linear per segment, so it answers at once (the test's own 5 s
  // timeout is the bound; no timing assertion is needed for a hang).
  it('answers the ReDoS pattern **/*a*a*a*a*a*a*a*a*a*a*a*b against long names at once', () => {
    const glob = compileGlob('**/*a*a*a*a*a*a*a*a*a*a*a*b');
    const long = 'a'.repeat(5000);
    expect(glob.test(`x/${long}`)).toBe(false);
    expect(glob.test(`${'d/'.repeat(200)}${long}`)).toBe(false);
    expect(glob.test(`x/${long}b`)).toBe(true);
    expect(compileGlob('*a*a*a*a*a*a*a*a*a*a*a*b').test(long)).toBe(false);
  });
});
