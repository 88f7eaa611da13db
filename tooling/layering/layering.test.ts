// The README's package table and layering sentence are checked against what the packages really
// declare and import, so the picture a reader trusts cannot drift from the code.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

interface Manifest {
  name: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  files?: string[];
}

const short = (name: string) => name.replace(/^@aibuddy\//, '');
const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
const packageDirs = readdirSync(join(root, 'packages')).filter((d) => existsSync(join(root, 'packages', d, 'package.json')));
const packages = new Map(packageDirs.map((d) => [short(manifest(`packages/${d}`).name), `packages/${d}`]));

/**
 * Published source files: tests, type tests and fixtures are not part of a package, nor are folders
 * its `files` leaves out (`"!src/testing"`: wire servers that only its tests and benchmarks use).
 */
function sourceFiles(dir: string, unpublished: ReadonlySet<string> = new Set()): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory())
      return entry === '__fixtures__' || unpublished.has(path) ? [] : sourceFiles(path, unpublished);
    return /\.tsx?$/.test(entry) && !/\.test(-d)?\.tsx?$/.test(entry) ? [path] : [];
  });
}

/** `from '@aibuddy/x'` (static, required) and `import('@aibuddy/x'…)` (loaded on demand) in a package's source. */
function importsOf(dir: string): { static: Set<string>; dynamic: Set<string> } {
  const found = { static: new Set<string>(), dynamic: new Set<string>() };
  const unpublished = new Set(
    (manifest(dir).files ?? []).filter((f) => f.startsWith('!src/')).map((f) => join(root, dir, f.slice(1))),
  );
  for (const file of sourceFiles(join(root, dir, 'src'), unpublished)) {
    const text = readFileSync(file, 'utf8').replace(/^\s*(\/\/|\*).*$/gm, '');
    for (const m of text.matchAll(/\bfrom '@aibuddy\/([a-z-]+)/g)) found.static.add(m[1]!);
    for (const m of text.matchAll(/\bimport\(\s*'@aibuddy\/([a-z-]+)/g)) found.dynamic.add(m[1]!);
  }
  const self = short(manifest(dir).name);
  found.static.delete(self);
  found.dynamic.delete(self);
  return found;
}

/** Declared arrows: dependencies and required peers; optional peers separately. */
function declared(dir: string): { required: Set<string>; optional: Set<string> } {
  const m = manifest(dir);
  const ours = (deps: Record<string, string> | undefined) => Object.keys(deps ?? {}).filter((n) => n.startsWith('@aibuddy/'));
  const optional = new Set(ours(m.peerDependencies).filter((n) => m.peerDependenciesMeta?.[n]?.optional));
  return {
    required: new Set([...ours(m.dependencies), ...ours(m.peerDependencies).filter((n) => !optional.has(n))].map(short)),
    optional: new Set([...optional].map(short)),
  };
}

/** The layering sentence: `a → b → c`, `a, b → c, d` (depends on) and `a ⇢ b` (optional peer, loaded on demand). */
function readmeLayering(): { required: Map<string, Set<string>>; optional: Map<string, Set<string>> } {
  const sentence = /(?:^|\n)Layering \(arrows = depends on[^\n]*?\):([\s\S]*?)(?:\n\n|$)/.exec(readme)?.[1];
  if (!sentence) throw new Error('README.md has no "Layering (arrows = depends on…):" sentence');
  const required = new Map<string, Set<string>>();
  const optional = new Map<string, Set<string>>();
  for (const [, chain] of sentence.matchAll(/`([a-z-]+(?:\s*,\s*[a-z-]+)*(?:\s*[→⇢]\s*[a-z-]+(?:\s*,\s*[a-z-]+)*)+)`/g)) {
    const groups = chain!.split(/\s*([→⇢])\s*/);
    for (let i = 0; i + 2 < groups.length; i += 2) {
      const target = groups[i + 1] === '⇢' ? optional : required;
      for (const from of groups[i]!.split(/\s*,\s*/)) {
        for (const to of groups[i + 2]!.split(/\s*,\s*/)) target.set(from, (target.get(from) ?? new Set()).add(to));
      }
    }
  }
  return { required, optional };
}

/** Everything reachable from `from` (depends on, directly or through others). */
function closure(edges: ReadonlyMap<string, ReadonlySet<string>>, from: string): string[] {
  const seen = new Set<string>();
  const visit = (node: string) => {
    for (const next of edges.get(node) ?? []) if (!seen.has(next)) seen.add(next) && visit(next);
  };
  visit(from);
  return [...seen].sort();
}

describe('README layering and package table', () => {
  const layering = readmeLayering();
  const actual = new Map<string, Set<string>>();
  const actualOptional = new Map<string, Set<string>>();
  for (const [name, dir] of packages) {
    const imports = importsOf(dir);
    const deps = declared(dir);
    // Every static import must be declared, and nothing declared may go unused: the arrow is both.
    expect([...imports.static].sort(), `${name}: imports vs dependencies`).toEqual([...deps.required].sort());
    expect([...imports.dynamic].sort(), `${name}: import() vs optional peers`).toEqual([...deps.optional].sort());
    actual.set(name, deps.required);
    actualOptional.set(name, deps.optional);
  }

  it('names only packages that exist', () => {
    const named = new Set([...layering.required, ...layering.optional].flatMap(([from, to]) => [from, ...to]));
    expect([...named].filter((n) => !packages.has(n))).toEqual([]);
  });

  it.each([...packages.keys()])('%s depends on exactly what the layering sentence says', (name) => {
    expect(closure(actual, name), 'depends on (directly or through others)').toEqual(closure(layering.required, name));
    expect([...(actualOptional.get(name) ?? [])].sort(), 'optional peers').toEqual(
      [...(layering.optional.get(name) ?? [])].sort(),
    );
  });

  it('has no cycle among the packages', () => {
    for (const name of packages.keys()) expect(closure(actual, name)).not.toContain(name);
  });

  it('lists every package and app in the table, and only those', () => {
    const table = [...readme.matchAll(/^\| \[`(@aibuddy\/[a-z-]+)`\]/gm)].map((m) => m[1]);
    const apps = readdirSync(join(root, 'apps')).filter((d) => existsSync(join(root, 'apps', d, 'package.json')));
    const names = [...packageDirs.map((d) => `packages/${d}`), ...apps.map((d) => `apps/${d}`)].map((d) => manifest(d).name);
    expect([...table].sort()).toEqual(names.sort());
  });

  it('has the reference host compose every package, and the web client drive the host', () => {
    const agent = declared('apps/agent').required;
    expect([...packages.keys()].filter((p) => !agent.has(p))).toEqual([]);
    expect(readme).toMatch(/`apps\/agent` composes everything/);
    expect(declared('apps/web').required.has('agent')).toBe(true);
    expect(relative(root, join(root, 'apps', 'web'))).toBe('apps/web');
  });
});
