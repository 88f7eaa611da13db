// Type-level tests of the config move (checked by `tsc -p packages/sandbox-node/tsconfig.json`):
// `NodeSandboxConfig` belongs to this package, and importing it types `createSandbox` of the spec
// package with every Node option. Each `@ts-expect-error` fails the compile if its error disappears.
import { createSandbox } from '@aibuddy/sandbox';
import type { NodeSandboxBaseConfig, SandboxConfig } from '@aibuddy/sandbox';
import type { NodeSandboxConfig } from './index.js';
import { createNodeSandbox } from './index.js';

/** Exact type equality. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(_value?: T): void {}

// The adapter's config extends the spec's base and is one of the configs createSandbox takes.
assertType<NodeSandboxConfig extends NodeSandboxBaseConfig ? true : false>();
assertType<NodeSandboxConfig extends SandboxConfig ? true : false>();
assertType<Equal<Parameters<typeof createNodeSandbox>[0], NodeSandboxConfig>>();

export async function typed(): Promise<void> {
  // Node options are known to createSandbox ...
  await createSandbox({ type: 'node', root: '/w', isolation: 'required', resourceLimits: { processes: 64 } });
  // ... and checked.
  // @ts-expect-error `isolation` takes 'auto' | 'off' | 'required'
  await createSandbox({ type: 'node', root: '/w', isolation: 'strict' });
  // @ts-expect-error a misspelt option is refused, not ignored
  await createSandbox({ type: 'node', root: '/w', isolaton: 'off' });
  // @ts-expect-error `root` is required
  await createSandbox({ type: 'node' });
  // The adapter passed explicitly fits the spec's factory type.
  await createSandbox({ type: 'node', root: '/w' }, { adapters: { node: createNodeSandbox } });
}
