import type { UIMessage } from 'ai';
import type { useLiveState } from './live-state.js';
import { ToolCard } from './tool-card.js';

type Live = ReturnType<typeof useLiveState>;

interface Compaction {
  toolCallId: string;
  strategy: string;
  originalTokens: number;
  compactedTokens: number;
  recoverable: boolean;
}
interface Failure {
  toolCallId: string;
  stage: string;
  message: string;
}

/** One message: text as text (never HTML), tool calls as cards, and the host's data parts. */
export function MessageView({ message, live, taskId }: { message: UIMessage; live: Live; taskId: string }) {
  const compactions = new Map<string, Compaction>();
  const failures = new Map<string, Failure>();
  for (const part of message.parts) {
    if (part.type === 'data-compaction') compactions.set((part.data as Compaction).toolCallId, part.data as Compaction);
    if (part.type === 'data-tool-failure') failures.set((part.data as Failure).toolCallId, part.data as Failure);
  }
  return (
    <article className={`message ${message.role}`}>
      {/* Parts only ever grow at the end of a streamed message, so their position is a stable key. */}
      {message.parts.map((part, index) => {
        switch (part.type) {
          case 'text':
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts are append-only; the position never changes.
              <p key={index} className="text">
                {part.text}
              </p>
            );
          case 'dynamic-tool':
            return (
              <ToolCard
                key={part.toolCallId}
                part={part}
                live={live.calls[part.toolCallId]}
                startedAt={live.seen(part.toolCallId)}
                compaction={compactions.get(part.toolCallId)}
                failure={failures.get(part.toolCallId)}
                taskId={taskId}
              />
            );
          case 'data-tools-joined': {
            const d = part.data as { names: string[] };
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts are append-only; the position never changes.
              <p key={index} className="joined">
                joined the tool set:{' '}
                {d.names.map((n) => (
                  <code key={n}>{n}</code>
                ))}
              </p>
            );
          }
          case 'data-run': {
            const d = part.data as { status: string; steps: number; error?: { stage: string; message: string } };
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts are append-only; the position never changes.
              <p key={index} className={`run-end ${d.status}`} data-status={d.status}>
                {d.status === 'completed'
                  ? `✔ done in ${d.steps} model calls`
                  : `run ${d.status}${d.error ? ` at ${d.error.stage}: ${d.error.message}` : ''}`}
              </p>
            );
          }
          default:
            return null;
        }
      })}
    </article>
  );
}
