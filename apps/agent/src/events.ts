import { closeSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeFolders } from '@aibuddy/compactor';
import type { CompactionEvent } from '@aibuddy/compactor';
import type { ModelRequestEvent, RuntimeEvent } from '@aibuddy/runtime';

/** The run started (host event, for logs). */
export interface RunStartEvent {
  type: 'run-start';
  /** The task id. */
  taskId: string;
  /** The task text. */
  task: string;
  /** The workspace root. */
  workspace: string;
  /** The model spec. */
  model: string;
  /** The defer path in use. */
  deferPath: string;
}

/** The run ended (host event, for logs). */
export interface RunEndEvent {
  type: 'run-end';
  /** `completed`, `failed` or `aborted`. */
  status: 'completed' | 'failed' | 'aborted';
  /** Model calls made. */
  steps: number;
  /** The error, when failed. */
  error?: { stage: string; message: string };
}

/** Every event of a host run: the runtime's, the compactor's and the host's own. */
export type AgentEvent = RuntimeEvent | ModelRequestEvent | CompactionEvent | RunStartEvent | RunEndEvent;

/** Receives agent events. */
export type AgentEventSink = (event: AgentEvent) => void;

/** An append-only JSONL event log. */
export interface EventLog {
  /** Appends one event as one line (written synchronously, so a stopped run leaves whole lines). */
  write(event: AgentEvent): void;
  /** Closes the file. */
  close(): void;
}

function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return { type: 'bytes', length: value.byteLength };
  if (value instanceof URL) return value.href;
  if (value instanceof Error) return { name: value.name, message: value.message };
  return value;
}

/**
 * Opens `file` for appending (creating its folder) and returns a log that writes one JSON object
 * per line with a `time` field (ms since epoch). Each line is one `write` call, so lines are never
 * interleaved or torn by a stop.
 */
export async function openEventLog(file: string): Promise<EventLog> {
  await makeFolders(dirname(file), 0o755);
  let fd: number | undefined = openSync(file, 'a');
  return {
    write(event) {
      if (fd === undefined) return;
      let line: string;
      try {
        line = JSON.stringify({ ...event, time: Date.now() }, replacer);
      } catch (error) {
        line = JSON.stringify({ type: event.type, time: Date.now(), unserializable: (error as Error).message });
      }
      writeSync(fd, `${line}\n`);
    },
    close() {
      if (fd === undefined) return;
      closeSync(fd);
      fd = undefined;
    },
  };
}
