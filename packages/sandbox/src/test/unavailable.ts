/**
 * The contract of a placeholder backend: every operation returns a promise that rejects with
 * `SandboxUnavailableError` naming the backend to use instead, never a synchronous throw.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxUnavailableError } from '../errors.js';
import type { ISandbox } from '../types.js';
import type { SandboxContractOptions } from './index.js';
import { rejectionOf, SANDBOX_OPERATIONS } from './operations.js';

/** Registers the tests of an unavailable backend. */
export function describeUnavailable(options: SandboxContractOptions): void {
  describe(`sandbox contract: ${options.name} (unavailable backend)`, () => {
    let sandbox: ISandbox;
    beforeEach(async () => {
      sandbox = await options.create();
    });
    afterEach(async () => {
      await options.destroy?.(sandbox);
    });

    for (const op of SANDBOX_OPERATIONS) {
      it(`${op.name} returns a promise that rejects with SandboxUnavailableError (never throws synchronously)`, async () => {
        let promise: Promise<unknown> | undefined;
        expect(() => {
          promise = op.call(sandbox, {});
        }).not.toThrow();
        expect(promise).toBeInstanceOf(Promise);
        const error = await rejectionOf(() => promise!);
        expect(SandboxUnavailableError.isInstance(error)).toBe(true);
        expect(String((error as Error).message)).toMatch(/node/);
      });
    }

    it('says which type it is', () => {
      expect(['daytona', 'e2b', 'node']).toContain(sandbox.type);
    });
  });
}
