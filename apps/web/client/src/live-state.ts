import { useCallback, useRef, useState } from 'react';
import type { PendingConfirmation } from './api.js';

/** Transient, client-only state of each call: live output, last heartbeat, decisions. */
export interface LiveCall {
  stdout: string;
  stderr: string;
  startedAt: number;
  lastHeartbeat?: number;
  decision?: { approved: boolean; reason?: string };
}

/** A transient data part as `useChat`'s `onData` hands it over. */
export interface DataPart {
  type: string;
  data: unknown;
}

/** Keeps the transient parts of the UI stream (they never enter the message history). */
export function useLiveState() {
  const [calls, setCalls] = useState<Record<string, LiveCall>>({});
  const [pending, setPending] = useState<PendingConfirmation[]>([]);
  const started = useRef(new Map<string, number>());

  const onData = useCallback((part: DataPart) => {
    const call = (prev: Record<string, LiveCall>, id: string): LiveCall => {
      if (!started.current.has(id)) started.current.set(id, Date.now());
      return prev[id] ?? { stdout: '', stderr: '', startedAt: started.current.get(id)! };
    };
    switch (part.type) {
      case 'data-tool-output': {
        const d = part.data as { toolCallId: string; stream: 'stdout' | 'stderr'; chunk: string };
        setCalls((prev) => {
          const c = call(prev, d.toolCallId);
          return { ...prev, [d.toolCallId]: { ...c, [d.stream]: c[d.stream] + d.chunk } };
        });
        break;
      }
      case 'data-heartbeat': {
        const d = part.data as { toolCallId: string; at: number };
        setCalls((prev) => ({ ...prev, [d.toolCallId]: { ...call(prev, d.toolCallId), lastHeartbeat: Date.now() } }));
        break;
      }
      case 'data-confirm-request': {
        const d = part.data as PendingConfirmation;
        setPending((prev) => (prev.some((p) => p.toolCallId === d.toolCallId) ? prev : [...prev, d]));
        break;
      }
      case 'data-confirm-decision': {
        const d = part.data as { toolCallId: string; approved: boolean; reason?: string };
        setPending((prev) => prev.filter((p) => p.toolCallId !== d.toolCallId));
        setCalls((prev) => ({
          ...prev,
          [d.toolCallId]: {
            ...call(prev, d.toolCallId),
            decision: { approved: d.approved, ...(d.reason ? { reason: d.reason } : {}) },
          },
        }));
        break;
      }
      default:
        break;
    }
  }, []);

  /** Marks the moment a call's card first appeared (its elapsed time counts from here). */
  const seen = useCallback((toolCallId: string) => {
    if (!started.current.has(toolCallId)) started.current.set(toolCallId, Date.now());
    return started.current.get(toolCallId)!;
  }, []);

  return { calls, pending, setPending, onData, seen };
}
