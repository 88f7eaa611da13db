/** Contract: an operation given an already aborted signal rejects with `SandboxAbortedError` and does nothing. */
import { beforeEach, describe, expect, it } from 'vitest';
import { SandboxAbortedError } from '../errors.js';
import type { ISandbox } from '../types.js';
import { rejectionOf, SANDBOX_OPERATIONS } from './operations.js';

/** Registers the abort tests; `withExec` includes `exec`. */
export function describeAbortContract(current: () => ISandbox, withExec: boolean): void {
  describe('abort', () => {
    let sandbox: ISandbox;
    beforeEach(() => {
      sandbox = current();
    });

    for (const op of SANDBOX_OPERATIONS) {
      if (op.name === 'exec' && !withExec) continue;
      it(`${op.name} with an already aborted signal rejects and does nothing`, async () => {
        await sandbox.writeFile('contract.txt', 'a');
        const error = await rejectionOf(() => op.call(sandbox, { signal: AbortSignal.abort() }));
        expect(SandboxAbortedError.isInstance(error)).toBe(true);
        expect((await sandbox.readFile('contract.txt')).content).toBe('a');
        const names = (await sandbox.ls('.')).entries.map((e) => e.name);
        expect(names).toEqual(['contract.txt']);
      });
    }
  });
}
