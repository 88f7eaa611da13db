/** A readable reason for an aborted signal ("the run was stopped" unless it says more). */
export function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name !== 'AbortError') return reason.message;
  return typeof reason === 'string' ? reason : 'the run was stopped';
}

/**
 * Waits for `promise` unless `signal` fires first; the wait is then abandoned with the signal's
 * reason, so a tool or a person that never answers cannot hold a stopped run.
 */
export function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
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
