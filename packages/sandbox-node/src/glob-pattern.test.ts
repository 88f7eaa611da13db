import { describe, expect, it } from 'vitest';
import { globToRegExp } from './glob-pattern.js';

const cases: [string, string[], string[]][] = [
  ['*.ts', ['a.ts', 'b.test.ts'], ['src/a.ts', 'a.tsx', '.hidden.ts']],
  ['**/*.ts', ['a.ts', 'src/a.ts', 'src/deep/b.ts'], ['a.js', '.git/x.ts', 'src/.cache/x.ts']],
  ['src/**', ['src/a', 'src/b/c'], ['lib/a']],
  ['src/**/index.{ts,js}', ['src/index.ts', 'src/a/index.js'], ['src/index.tsx', 'index.ts']],
  ['file?.md', ['file1.md', 'fileA.md'], ['file10.md', 'file/.md']],
  ['[ab]*.txt', ['a1.txt', 'b.txt'], ['c.txt']],
  ['[!ab]*.txt', ['c.txt'], ['a.txt']],
  ['.github/**/*.yml', ['.github/workflows/ci.yml'], ['github/ci.yml']],
  ['a+b(c).txt', ['a+b(c).txt'], ['aab(c).txt']],
];

describe('globToRegExp', () => {
  for (const [pattern, yes, no] of cases) {
    it(pattern, () => {
      const re = globToRegExp(pattern);
      for (const path of yes) expect(re.test(path), `${pattern} should match ${path}`).toBe(true);
      for (const path of no) expect(re.test(path), `${pattern} should not match ${path}`).toBe(false);
    });
  }
  it('refuses empty and unbalanced patterns', () => {
    expect(() => globToRegExp('')).toThrow(/empty/);
    expect(() => globToRegExp('{a,b')).toThrow(/unbalanced/);
  });
});
