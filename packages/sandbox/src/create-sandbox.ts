import { SandboxUnavailableError } from './errors.js';
import type { ISandbox, SandboxConfig, SandboxType } from './types.js';

/** The backends this deployment can actually run. */
export const AVAILABLE_SANDBOX_TYPES: readonly SandboxType[] = ['node'];

/**
 * Creates a sandbox from its config. `node` loads `@aibuddy/sandbox-node` (kept out of this spec
 * package's dependencies); `daytona` and `e2b` reject with `SandboxUnavailableError` naming the
 * backend and the one that works: having a type does not mean the deployment supports it.
 */
export async function createSandbox(config: SandboxConfig): Promise<ISandbox> {
  if (config.type === 'node') {
    const moduleName = '@aibuddy/sandbox-node';
    let adapter: { createNodeSandbox(config: SandboxConfig): Promise<ISandbox> };
    try {
      adapter = (await import(moduleName)) as typeof adapter;
    } catch (error) {
      throw new SandboxUnavailableError(
        `The "node" sandbox backend needs the package ${moduleName}; install it next to @aibuddy/sandbox.`,
        { cause: error },
      );
    }
    return adapter.createNodeSandbox(config);
  }
  const type = (config as { type?: unknown }).type;
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
