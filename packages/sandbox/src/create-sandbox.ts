import { SandboxUnavailableError } from './errors.js';
import type { ISandbox, NodeSandboxBaseConfig, SandboxConfig, SandboxType } from './types.js';

/** The backends that have a working adapter (`@aibuddy/sandbox-node`). */
export const AVAILABLE_SANDBOX_TYPES: readonly SandboxType[] = ['node'];

/** Opens a sandbox from its config: what an adapter package exports (for example `createNodeSandbox`). */
export type SandboxFactory<C extends { type: SandboxType } = SandboxConfig> = (config: C) => Promise<ISandbox>;

/**
 * A function that opens a Node sandbox from its config (what `@aibuddy/sandbox-node` exports). It
 * receives the whole config given to `createSandbox`; its own options are the adapter's business.
 */
export type NodeSandboxFactory = SandboxFactory<NodeSandboxBaseConfig>;

/** Adapters passed to `createSandbox` explicitly, by backend type. */
export interface SandboxAdapters {
  /** The Node adapter (`createNodeSandbox` from `@aibuddy/sandbox-node`). Default: that package, imported. */
  node?: NodeSandboxFactory;
  /** A Daytona adapter (for example `createDaytonaSandbox` from `@aibuddy/sandbox-daytona`). No default. */
  // The config type belongs to the adapter package, so the spec only knows its `type`.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  daytona?: SandboxFactory<any>;
  /** An E2B adapter. No default. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  e2b?: SandboxFactory<any>;
}

/** Options of {@link createSandbox}. */
export interface CreateSandboxOptions {
  /** Adapters to use instead of the default ones; a host that bundles or wraps an adapter passes it here. */
  adapters?: SandboxAdapters;
}

const NODE_ADAPTER = '@aibuddy/sandbox-node';

async function importNodeAdapter(): Promise<NodeSandboxFactory> {
  try {
    // A declared optional peer dependency, so a plain import resolves in every install layout
    // (npm, pnpm, yarn) whenever the application installed it.
    const adapter = (await import('@aibuddy/sandbox-node' as string)) as { createNodeSandbox?: NodeSandboxFactory };
    if (typeof adapter.createNodeSandbox !== 'function') throw new TypeError(`${NODE_ADAPTER} exports no createNodeSandbox`);
    return adapter.createNodeSandbox;
  } catch (error) {
    throw new SandboxUnavailableError(
      `The "node" sandbox backend needs the package ${NODE_ADAPTER}, which could not be loaded ` +
        `(${error instanceof Error ? error.message : String(error)}). Install it next to @aibuddy/sandbox ` +
        `(npm install ${NODE_ADAPTER}), or pass it: createSandbox(config, { adapters: { node: createNodeSandbox } }).`,
      { cause: error },
    );
  }
}

/**
 * Creates a sandbox from its config. The adapter is the one passed in `options.adapters`, or for
 * `node` the optional peer `@aibuddy/sandbox-node`, loaded with a plain `import()`. `daytona` and
 * `e2b` without an adapter reject with `SandboxUnavailableError` naming the backend and the one that
 * works: having a type does not mean the deployment supports it. Always rejects, never throws.
 */
export async function createSandbox(config: SandboxConfig, options: CreateSandboxOptions = {}): Promise<ISandbox> {
  const type = (config as { type?: unknown } | undefined)?.type;
  if (type === 'node') {
    const factory = options.adapters?.node ?? (await importNodeAdapter());
    return factory(config as NodeSandboxBaseConfig);
  }
  if (type === 'daytona' || type === 'e2b') {
    const factory = options.adapters?.[type];
    if (factory) return factory(config);
    throw new SandboxUnavailableError(
      `The "${type}" sandbox backend is unavailable in this deployment (no adapter was given and its adapter is a placeholder). ` +
        `Use { type: "node", root: "<workspace folder>" }, the backend that works here.`,
    );
  }
  throw new SandboxUnavailableError(
    `Unknown sandbox type ${JSON.stringify(type)}. Known types: node, daytona, e2b; available here: ${AVAILABLE_SANDBOX_TYPES.join(', ')}.`,
  );
}
