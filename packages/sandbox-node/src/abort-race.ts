import { SandboxAbortedError } from '@aibuddy/sandbox';

/**
 * Settles with `work`, or rejects with `SandboxAbortedError` as soon as the signal fires, whichever
 * is first. For reads whose single system call can take long on a big folder (one `readdir` of
 * 20,000 entries on a busy machine): the call itself cannot be interrupted, but its result is then
 * simply dropped (it only reads), so the operation stops within the abort's latency budget.
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined, operation: string): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(new SandboxAbortedError(`${operation} was aborted.`, { cause: signal.reason }));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      work.catch(() => undefined);
      reject(new SandboxAbortedError(`${operation} was aborted.`, { cause: signal.reason }));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
