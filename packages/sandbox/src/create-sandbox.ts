import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SandboxUnavailableError } from './errors.js';
import type { ISandbox, NodeSandboxConfig, SandboxConfig, SandboxType } from './types.js';

/** The backends this deployment can actually run. */
export const AVAILABLE_SANDBOX_TYPES: readonly SandboxType[] = ['node'];

/** A function that opens a Node sandbox from its config (what `@aibuddy/sandbox-node` exports). */
export type NodeSandboxFactory = (config: NodeSandboxConfig) => Promise<ISandbox>;

const registryKey = Symbol.for('aibuddy.sandbox.adapters');
const NODE_ADAPTER = '@aibuddy/sandbox-node';

function registry(): { node?: NodeSandboxFactory } {
  const holder = globalThis as unknown as Record<symbol, { node?: NodeSandboxFactory } | undefined>;
  holder[registryKey] ??= {};
  return holder[registryKey]!;
}

/**
 * Registers the Node adapter's factory. `@aibuddy/sandbox-node` calls this when it is imported,
 * so `createSandbox` finds it even where the package manager's strict layout hides it from this
 * package (it is deliberately not a dependency of the spec package).
 */
export function registerNodeSandboxFactory(factory: NodeSandboxFactory): void {
  registry().node = factory;
}

/**
 * Finds `@aibuddy/sandbox-node` next to the running program or the current folder, for pnpm-style
 * layouts where a plain `import()` from this package cannot see it.
 */
async function importFromHost(): Promise<{ createNodeSandbox: NodeSandboxFactory } | undefined> {
  const starts = [process.argv[1] ? dirname(process.argv[1]) : undefined, process.cwd()];
  for (const start of starts) {
    let dir = start;
    while (dir) {
      const pkgDir = join(dir, 'node_modules', ...NODE_ADAPTER.split('/'));
      const pkgJson = join(pkgDir, 'package.json');
      if (existsSync(pkgJson)) {
        const pkg = JSON.parse(readFileSync(pkgJson, 'utf8')) as { exports?: { '.'?: { import?: string } }; main?: string };
        const entry = pkg.exports?.['.']?.import ?? pkg.main ?? 'index.js';
        return (await import(pathToFileURL(join(pkgDir, entry)).href)) as { createNodeSandbox: NodeSandboxFactory };
      }
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return undefined;
}

async function loadNodeFactory(): Promise<NodeSandboxFactory> {
  const registered = registry().node;
  if (registered) return registered;
  let firstError: unknown;
  try {
    const moduleName = NODE_ADAPTER;
    const adapter = (await import(moduleName)) as { createNodeSandbox: NodeSandboxFactory };
    return adapter.createNodeSandbox;
  } catch (error) {
    firstError = error;
  }
  try {
    const adapter = await importFromHost();
    if (adapter) return adapter.createNodeSandbox;
  } catch (error) {
    firstError = error;
  }
  throw new SandboxUnavailableError(
    `The "node" sandbox backend needs the package ${NODE_ADAPTER}; install it next to @aibuddy/sandbox ` +
      `(or import it once before calling createSandbox).`,
    { cause: firstError },
  );
}

/**
 * Creates a sandbox from its config. `node` loads `@aibuddy/sandbox-node` (kept out of this spec
 * package's dependencies); `daytona` and `e2b` reject with `SandboxUnavailableError` naming the
 * backend and the one that works: having a type does not mean the deployment supports it.
 */
export async function createSandbox(config: SandboxConfig): Promise<ISandbox> {
  if (config?.type === 'node') {
    const factory = await loadNodeFactory();
    return factory(config);
  }
  const type = (config as { type?: unknown } | undefined)?.type;
  if (type === 'daytona' || type === 'e2b') {
    throw new SandboxUnavailableError(
      `The "${type}" sandbox backend is unavailable in this deployment (its adapter is a placeholder). ` +
        `Use { type: "node", root: "<workspace folder>" }, the backend that works here.`,
    );
  }
  throw new SandboxUnavailableError(
    `Unknown sandbox type ${JSON.stringify(type)}. Known types: node, daytona, e2b; available here: ${AVAILABLE_SANDBOX_TYPES.join(', ')}.`,
  );
}
