/**
 * The shared adapter contract suite. Every adapter runs it from its own test file and adds only
 * its own extra tests (the unstorage `testDriver` pattern):
 *
 * ```ts
 * import { describeSandboxContract } from '@aibuddy/sandbox/test';
 * describeSandboxContract({ name: 'node', create: () => createNodeSandbox({ type: 'node', root: tmp() }) });
 * ```
 *
 * It only uses the public `ISandbox` API, so it runs against remote backends too.
 * @packageDocumentation
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxError } from '../errors.js';
import type { ISandbox } from '../types.js';
import { describeAbortContract } from './abort.js';
import { describeConfinementContract } from './confinement.js';
import { describeEditFileContract } from './edit-file.js';
import { describeExecContract } from './exec.js';
import { rejectionOf } from './operations.js';
import { describeReadWriteContract } from './read-write.js';
import { describeSearchContract } from './search.js';
import { describeUnavailable } from './unavailable.js';

export { ESCAPING_PATHS, SANDBOX_OPERATIONS } from './operations.js';

/** What the adapter under test can do; the suite checks the rest is refused properly. */
export interface SandboxContractCapabilities {
  /** False for placeholder backends: every operation must reject with `SandboxUnavailableError`. */
  available: boolean;
  /** Whether `exec` runs commands (default true when available). */
  exec?: boolean;
}

/** Options of `describeSandboxContract`. */
export interface SandboxContractOptions {
  /** Name shown in the test report. */
  name: string;
  /** Creates a fresh sandbox over an empty workspace; called before every test. */
  create: () => ISandbox | Promise<ISandbox>;
  /** Removes what `create` made (after `close`); called after every test. */
  destroy?: (sandbox: ISandbox) => void | Promise<void>;
  /** What the backend supports (default: available, with exec). */
  capabilities?: SandboxContractCapabilities;
}

function describeAvailable(options: SandboxContractOptions): void {
  const withExec = options.capabilities?.exec !== false;
  describe(`sandbox contract: ${options.name}`, () => {
    let sandbox: ISandbox;
    beforeEach(async () => {
      sandbox = await options.create();
    });
    afterEach(async () => {
      await sandbox.close?.();
      await options.destroy?.(sandbox);
    });
    const current = () => sandbox;
    describeReadWriteContract(current);
    describeEditFileContract(current);
    describeSearchContract(current);
    describeConfinementContract(current, withExec);
    describeAbortContract(current, withExec);
    if (withExec) describeExecContract(current);

    it('every failure is a SandboxError with a code', async () => {
      const error = await rejectionOf(() => sandbox.readFile('../x'));
      expect(SandboxError.isInstance(error)).toBe(true);
      expect((error as SandboxError).code).toBe('PATH_ESCAPE');
    });
  });
}

/**
 * Registers the contract tests for one adapter. With `capabilities.available: false` it checks
 * that every operation rejects with `SandboxUnavailableError` (as a rejected promise, never a
 * synchronous throw); otherwise it checks behaviour, limits, confinement and abort.
 */
export function describeSandboxContract(options: SandboxContractOptions): void {
  if (options.capabilities?.available === false) describeUnavailable(options);
  else describeAvailable(options);
}
