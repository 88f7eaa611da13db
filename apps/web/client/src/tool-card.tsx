import type { DynamicToolUIPart } from 'ai';
import { useEffect, useRef, useState } from 'react';
import type { LiveCall } from './live-state.js';
import { RawView } from './raw-view.js';

interface Props {
  part: DynamicToolUIPart;
  live: LiveCall | undefined;
  startedAt: number;
  compaction: { originalTokens: number; compactedTokens: number; strategy: string; recoverable: boolean } | undefined;
  failure: { stage: string; message: string } | undefined;
  taskId: string;
}

function preview(value: unknown, max = 240): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}

/** Whole seconds since `since`, ticking while the call runs. */
function useElapsed(since: number, running: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [running]);
  return Math.max(0, Math.floor(((running ? now : Date.now()) - since) / 1000));
}

/** Live output that keeps the newest line in view while it streams. */
function LiveOutput({ text, label }: { text: string; label: string }) {
  const ref = useRef<HTMLPreElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the effect scrolls each time new text arrives.
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [text]);
  return (
    <pre ref={ref} className={`output ${label}`} role="log" aria-label={label}>
      {text}
    </pre>
  );
}

/** One tool call: its client projection, live while it runs. */
export function ToolCard({ part, live, startedAt, compaction, failure, taskId }: Props) {
  const running = part.state === 'input-available' || part.state === 'input-streaming';
  const elapsed = useElapsed(startedAt, running);
  const [showRaw, setShowRaw] = useState(false);
  const output = part.state === 'output-available' ? (part.output as Record<string, unknown> | null) : undefined;
  const exitCode = output && 'exitCode' in output ? (output.exitCode as number | null) : undefined;
  const durationMs = output && typeof output.durationMs === 'number' ? output.durationMs : undefined;
  const liveText = live ? live.stdout + (live.stderr ? `\n--- stderr ---\n${live.stderr}` : '') : '';
  const heartbeatAge = live?.lastHeartbeat ? Math.floor((Date.now() - live.lastHeartbeat) / 1000) : undefined;

  return (
    <section className={`tool-card ${part.state}`} data-tool-call-id={part.toolCallId} data-tool-name={part.toolName}>
      <header>
        <strong>{part.toolName}</strong>
        <span className="status">
          {running ? `running ${elapsed}s` : part.state === 'output-error' ? 'failed' : 'done'}
          {running && heartbeatAge !== undefined ? ` · alive (heartbeat ${heartbeatAge}s ago)` : ''}
        </span>
      </header>
      <p className="input">{preview(part.input)}</p>
      {live?.decision ? (
        <p className={`decision ${live.decision.approved ? 'approved' : 'rejected'}`}>
          {live.decision.approved ? 'approved by you' : `rejected${live.decision.reason ? `: ${live.decision.reason}` : ''}`}
        </p>
      ) : null}
      {liveText ? <LiveOutput text={liveText} label="live output" /> : null}
      {exitCode !== undefined || durationMs !== undefined ? (
        <p className="exit">
          {exitCode !== undefined ? `exit code ${exitCode === null ? '(killed)' : exitCode}` : ''}
          {durationMs !== undefined ? ` · ${(durationMs / 1000).toFixed(1)} s` : ''}
        </p>
      ) : null}
      {output && !liveText ? (
        typeof output.summary === 'string' ? (
          <details className="result">
            <summary>{output.summary}</summary>
            <pre className="output">{preview(output.output ?? output, 4000)}</pre>
          </details>
        ) : (
          <pre className="output result">{preview(output, 2000)}</pre>
        )
      ) : null}
      {part.state === 'output-error' ? (
        <p className="failure" role="status">
          failed at <span className="stage">{failure?.stage ?? 'execution'}</span>: {failure?.message ?? part.errorText}
        </p>
      ) : null}
      {compaction ? (
        <p className="compaction">
          compacted: {compaction.originalTokens} → {compaction.compactedTokens} tokens ({compaction.strategy})
          {compaction.recoverable ? (
            <button type="button" className="raw-toggle" onClick={() => setShowRaw((v) => !v)}>
              {showRaw ? 'hide raw' : 'raw'}
            </button>
          ) : null}
        </p>
      ) : null}
      {showRaw ? <RawView taskId={taskId} toolCallId={part.toolCallId} /> : null}
    </section>
  );
}
