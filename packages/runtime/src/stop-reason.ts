import { abortReason } from './abort.js';

/** Whether an abort came from the AI SDK's `timeout: { chunkMs }` (a stream that went silent). */
export function isChunkTimeout(reason: unknown): boolean {
  return reason instanceof Error && reason.name === 'TimeoutError' && /^Chunk timeout/i.test(reason.message);
}

/**
 * Why a running call was stopped, as a sentence for the model and the user. A chunk timeout says
 * what happened and why the call was silent: the design keeps live calls alive with heartbeats,
 * so a call aborted this way either had them disabled or was stuck in a way the timer could not see.
 */
export function stopReason(signal: AbortSignal, heartbeatIntervalMs: number): string {
  if (!isChunkTimeout(signal.reason)) return abortReason(signal);
  const what = (signal.reason as Error).message;
  return heartbeatIntervalMs > 0
    ? `the stream's chunk timeout aborted the call (${what}): no chunk reached the stream for that long`
    : `the stream's chunk timeout aborted the call (${what}): heartbeats are disabled (heartbeat interval 0), ` +
        'so a call that stays silent longer than the chunk timeout is aborted. Enable heartbeats or raise the chunk timeout';
}
