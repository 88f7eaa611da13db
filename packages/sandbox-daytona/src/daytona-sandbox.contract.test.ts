import { describe, expect, it } from 'vitest';
import { createSandbox, SandboxUnavailableError } from '@aibuddy/sandbox';
import { describeSandboxContract, SANDBOX_OPERATIONS } from '@aibuddy/sandbox/test';
import { createDaytonaSandbox } from './daytona-sandbox.js';

describeSandboxContract({
  name: 'daytona placeholder',
  create: () => createDaytonaSandbox({ type: 'daytona', apiKey: 'not-used' }),
  capabilities: { available: false },
});

describe('daytona placeholder', () => {
  it('rejects even with an aborted signal, as a promise', async () => {
    const sandbox = await createDaytonaSandbox();
    for (const op of SANDBOX_OPERATIONS) {
      await expect(op.call(sandbox, { signal: AbortSignal.abort() })).rejects.toSatisfy((e: unknown) =>
        SandboxUnavailableError.isInstance(e),
      );
    }
  });

  it('createSandbox rejects daytona and e2b configs naming the backend and the one that works', async () => {
    for (const type of ['daytona', 'e2b'] as const) {
      const promise = createSandbox({ type });
      expect(promise).toBeInstanceOf(Promise);
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(SandboxUnavailableError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(`"${type}"`);
      expect((error as Error).message).toContain('"node"');
    }
  });
});
