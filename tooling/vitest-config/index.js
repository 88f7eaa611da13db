// Shared vitest settings. Tests import sibling packages from their TypeScript sources (not dist),
// so a test run never depends on a stale build; only the CLI end-to-end tests need `dist/`.
import { readdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** `@aibuddy/<name>` (and `@aibuddy/<name>/<sub>`) → the package's `src/`. */
export function workspaceAliases() {
  const aliases = [];
  for (const group of ['packages', 'apps']) {
    const base = join(repoRoot, group);
    if (!existsSync(base)) continue;
    for (const dir of readdirSync(base)) {
      const src = join(base, dir, 'src');
      if (!existsSync(join(src, 'index.ts'))) continue;
      const name = group === 'apps' && dir === 'agent' ? 'agent' : dir;
      const escaped = name.replace(/[-]/g, '\\-');
      aliases.push({ find: new RegExp(`^@aibuddy/${escaped}/test$`), replacement: join(src, 'test', 'index.ts') });
      aliases.push({ find: new RegExp(`^@aibuddy/${escaped}$`), replacement: join(src, 'index.ts') });
    }
  }
  return aliases;
}

/** Settings every package's vitest project shares. */
export const sharedTestOptions = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 30_000,
  // Real child processes and servers: keep parallelism modest on 2-core machines.
  maxWorkers: 2,
};
