/**
 * The fixed inputs of the contract suite: every `ISandbox` operation called with harmless
 * arguments, and paths that every path-taking operation must refuse. Exported so adapters can
 * reuse them in their own tests.
 */
import type { ISandbox } from '../types.js';

/** Every operation of `ISandbox`, called with harmless arguments and extra options. */
export const SANDBOX_OPERATIONS: readonly {
  name: 'ls' | 'readFile' | 'writeFile' | 'editFile' | 'glob' | 'grep' | 'exec';
  call: (sandbox: ISandbox, options: { signal?: AbortSignal }) => Promise<unknown>;
}[] = [
  { name: 'ls', call: (s, o) => s.ls('.', o) },
  { name: 'readFile', call: (s, o) => s.readFile('contract.txt', o) },
  { name: 'writeFile', call: (s, o) => s.writeFile('written-by-contract.txt', 'x', o) },
  { name: 'editFile', call: (s, o) => s.editFile('contract.txt', { oldText: 'a', newText: 'b' }, o) },
  { name: 'glob', call: (s, o) => s.glob('**/*', o) },
  { name: 'grep', call: (s, o) => s.grep('a', o) },
  { name: 'exec', call: (s, o) => s.exec('touch made-by-contract', o) },
];

/** Paths that must be refused with `SandboxPathError` by every path-taking operation. */
export const ESCAPING_PATHS: readonly string[] = [
  '..',
  '../outside.txt',
  'a/../../outside.txt',
  './../outside.txt',
  '/etc/passwd',
  '/',
  'file\0.txt',
  '~/outside.txt',
  '~',
  'C:\\Windows\\win.ini',
  'C:/Windows/win.ini',
  '\\\\server\\share\\file',
  '//server/share/file',
];

/** The error an operation rejects with; fails the test when it resolves instead. */
export async function rejectionOf(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the operation to reject, but it resolved');
}
