import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AVAILABLE_SANDBOX_TYPES, createSandbox } from './create-sandbox.js';
import { SandboxUnavailableError } from './errors.js';
import type { ISandbox, SandboxConfig } from './types.js';

describe('createSandbox', () => {
  it('node gives a working adapter (loaded from @aibuddy/sandbox-node)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'aibuddy-create-'));
    try {
      // `isolation` is the Node adapter's option: typed once `@aibuddy/sandbox-node` is imported (not in the spec's own build).
      const sandbox = await createSandbox({ type: 'node', root, isolation: 'off' } as SandboxConfig);
      expect(sandbox.type).toBe('node');
      await sandbox.writeFile('x.txt', 'hello');
      expect((await sandbox.readFile('x.txt')).content).toBe('hello');
      await sandbox.close?.();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  for (const config of [
    { type: 'daytona', apiKey: 'k', root: '/home/daytona' },
    { type: 'e2b', apiKey: 'k', template: 'base' },
  ] as SandboxConfig[]) {
    it(`${config.type} rejects (as a promise) with SandboxUnavailableError naming the backend and the one that works`, async () => {
      let promise: Promise<unknown> | undefined;
      expect(() => {
        promise = createSandbox(config);
      }).not.toThrow();
      const error = await promise!.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(SandboxUnavailableError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(`"${config.type}"`);
      expect((error as Error).message).toContain('{ type: "node"');
    });
  }

  it('uses an adapter passed explicitly, for any backend, and gives it the config', async () => {
    const seen: SandboxConfig[] = [];
    const fake = (config: SandboxConfig) => {
      seen.push(config);
      return Promise.resolve({ type: config.type } as unknown as ISandbox);
    };
    const node = await createSandbox({ type: 'node', root: '/nowhere' }, { adapters: { node: fake } });
    const daytona = await createSandbox({ type: 'daytona', snapshot: 's' }, { adapters: { daytona: fake } });
    expect([node.type, daytona.type]).toEqual(['node', 'daytona']);
    expect(seen).toEqual([
      { type: 'node', root: '/nowhere' },
      { type: 'daytona', snapshot: 's' },
    ]);
  });

  it('keeps no global registry: importing the node adapter changes nothing for another call', async () => {
    // The spec package keeps no state between calls: no globalThis key holds an adapter.
    await import('@aibuddy/sandbox-node');
    const keys = Object.getOwnPropertySymbols(globalThis).map(String);
    expect(keys.filter((k) => k.includes('aibuddy.sandbox'))).toEqual([]);
  });

  it('an unknown type rejects and lists what exists', async () => {
    const error = await createSandbox({ type: 'docker' } as unknown as SandboxConfig).catch((e: unknown) => e);
    expect(SandboxUnavailableError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/Known types: node, daytona, e2b; available here: node/);
    expect(AVAILABLE_SANDBOX_TYPES).toEqual(['node']);
  });
});
