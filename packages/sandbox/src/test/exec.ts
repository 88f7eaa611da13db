/** Contract: `exec` (output, exit codes as results, cwd and env, closed stdin, live output, timeout, abort). */
import { beforeEach, describe, expect, it } from 'vitest';
import { SandboxArgumentError } from '../errors.js';
import type { ISandbox } from '../types.js';
import { rejectionOf } from './operations.js';

/** Registers the `exec` tests (call only for backends that run commands). */
export function describeExecContract(current: () => ISandbox): void {
  describe('exec', () => {
    let sandbox: ISandbox;
    beforeEach(() => {
      sandbox = current();
    });

    it('runs a command in the root and returns its output', async () => {
      await sandbox.writeFile('here.txt', 'x');
      const result = await sandbox.exec('ls; echo err >&2');
      expect(result).toMatchObject({ exitCode: 0, timedOut: false, truncated: false });
      expect(result.stdout).toBe('here.txt\n');
      expect(result.stderr).toBe('err\n');
      expect(result.durationMs).toBeGreaterThanOrEqual(0);
    });

    it('refuses a command or environment value UTF-8 cannot hold (a lone surrogate); nothing runs', async () => {
      // Encoded for the shell, the half would become U+FFFD: another command than the one approved.
      for (const [command, env] of [
        ['touch ran.txt; echo "broken \ud83d emoji"', undefined],
        ['touch ran.txt; echo "$X"', { X: 'half \udc00' }],
      ] as const) {
        const error = await rejectionOf(() => sandbox.exec(command, env ? { env } : {}));
        expect(SandboxArgumentError.isInstance(error)).toBe(true);
        expect((error as Error).message).toMatch(/lone surrogate/);
      }
      expect((await sandbox.ls('.')).entries.map((e) => e.name)).not.toContain('ran.txt');
      // A whole pair is one character and runs.
      expect((await sandbox.exec('echo "\ud83d\ude00"')).stdout).toBe('\u{1F600}\n');
    });

    it('returns a non-zero exit as a result', async () => {
      const result = await sandbox.exec('echo out; exit 3');
      expect(result.exitCode).toBe(3);
      expect(result.stdout).toBe('out\n');
    });

    it('honours cwd and env, and closes stdin', async () => {
      await sandbox.writeFile('sub/x.txt', 'x');
      const result = await sandbox.exec('pwd; echo "$GREETING"; cat; echo done', { cwd: 'sub', env: { GREETING: 'hi' } });
      expect(result.stdout.split('\n').slice(1)).toEqual(['hi', 'done', '']);
      expect(result.stdout.split('\n')[0]).toMatch(/\/sub$/);
    });

    it('streams output live', async () => {
      const chunks: string[] = [];
      const result = await sandbox.exec('printf "a\\n"; sleep 0.05; printf "b\\n"', { onStdout: (c) => chunks.push(c) });
      expect(chunks.join('')).toBe('a\nb\n');
      expect(result.stdout).toBe('a\nb\n');
    });

    it('stops a command at its timeout and says so', async () => {
      const started = Date.now();
      const result = await sandbox.exec('sleep 20', { timeoutMs: 200 });
      expect(result.timedOut).toBe(true);
      expect(result.exitCode).not.toBe(0);
      expect(Date.now() - started).toBeLessThan(15_000);
    });

    it('stops a command when aborted', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const result = await sandbox.exec('sleep 20', { signal: controller.signal, timeoutMs: 20_000 });
      expect(result.aborted).toBe(true);
      expect(result.timedOut).toBe(false);
    });
  });
}
