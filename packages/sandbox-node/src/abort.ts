import { SandboxAbortedError } from '@aibuddy/sandbox';

/** Rejects (throws inside an async function) when the signal is already aborted, before any side effect. */
export function throwIfAborted(signal: AbortSignal | undefined, operation: string): void {
  if (signal?.aborted) {
    throw new SandboxAbortedError(`${operation} was aborted before it started; nothing was done.`, {
      cause: signal.reason,
    });
  }
}
