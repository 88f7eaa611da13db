import { describe, expect, it } from 'vitest';
import { createPathLock, lockKey } from './path-lock.js';

describe('createPathLock', () => {
  it('runs tasks on one path one after the other, and on other paths side by side', async () => {
    const lock = createPathLock('/ws');
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await new Promise((r) => setTimeout(r, ms));
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([
      lock.run('a.txt', task('a1', 30)),
      lock.run('./a.txt', task('a2', 1)),
      lock.run('b.txt', task('b', 1)),
    ]);
    expect(results).toEqual(['a1', 'a2', 'b']);
    expect(log.indexOf('end a1')).toBeLessThan(log.indexOf('start a2'));
    expect(log.indexOf('start b')).toBeLessThan(log.indexOf('end a1'));
  });

  it('goes on after a failed task', async () => {
    const lock = createPathLock('/ws');
    await expect(lock.run('x', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock.run('x', async () => 'next')).resolves.toBe('next');
  });

  it('normalizes paths to one key', () => {
    expect(lockKey('./src//a.ts', '/ws')).toBe('src/a.ts');
    expect(lockKey('/ws/src/a.ts', '/ws')).toBe('src/a.ts');
    expect(lockKey('src/../src/a.ts', '/ws')).toBe('src/a.ts');
  });
});
