import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinkResolver } from './link-resolver.js';

let base: string;
let root: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'aibuddy-links-'));
  root = join(base, 'ws');
  mkdirSync(join(root, '.git/hooks'), { recursive: true });
  mkdirSync(join(base, 'elsewhere'));
  symlinkSync('.git/hooks', join(root, 'hooks'));
  symlinkSync(join(base, 'elsewhere'), join(root, 'out'));
  symlinkSync('missing-target', join(root, 'dangling'));
  symlinkSync('loop', join(root, 'loop'));
  mkdirSync(join(root, '..dots'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('createLinkResolver (real symlinks on disk)', () => {
  it('follows a link inside the workspace to its real workspace-relative path', () => {
    expect(createLinkResolver(root)('hooks/pre-commit')).toBe('.git/hooks/pre-commit');
  });
  it('takes parts that do not exist yet as written', () => {
    expect(createLinkResolver(root)('new/dir/file.txt')).toBe('new/dir/file.txt');
    expect(createLinkResolver(root)('.')).toBe('.');
  });
  it('says outside for a link that leaves the workspace, but not for a name that starts with ".."', () => {
    expect(createLinkResolver(root)('out/x')).toBe('outside');
    expect(createLinkResolver(root)('..dots/x')).toBe('..dots/x');
  });
  it('says unknown for a dangling link, a loop and a missing root', () => {
    expect(createLinkResolver(root)('dangling')).toBe('unknown');
    expect(createLinkResolver(root)('loop/x')).toBe('unknown');
    expect(createLinkResolver(join(base, 'no-such-root'))('a')).toBe('unknown');
  });
});
