import { closeSync, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs';
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
  /**
   * Appends one event as one line (written synchronously, so a stopped run leaves whole lines).
   * Never throws: after a write error the log reports it through `onWriteError` and stops.
   */
  write(event: AgentEvent): void;
  /** How many events were not written because the log had stopped on a write error. */
  dropped(): number;
  /** Closes the file. */
  close(): void;
}

/** Options of {@link openEventLog}. */
export interface EventLogOptions {
  /**
   * Called once, on the first write that fails (a full disk, a file that takes no writes); the log
   * writes nothing after it. Without it the failure is silent but still counted by `dropped()`.
   */
  onWriteError?: (error: Error) => void;
}

function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return { type: 'bytes', length: value.byteLength };
  if (value instanceof URL) return value.href;
  if (value instanceof Error) return { name: value.name, message: value.message };
  return value;
}

function serialize(event: AgentEvent): string {
  try {
    return JSON.stringify({ ...event, time: Date.now() }, replacer);
  } catch (error) {
    return JSON.stringify({ type: event.type, time: Date.now(), unserializable: (error as Error).message });
  }
}

/** Writes all of `bytes`; on an error, takes back the part already written (no torn last line). */
function writeWhole(fd: number, bytes: Buffer): void {
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(fd, bytes, written);
  } catch (error) {
    if (written > 0) {
      try {
        ftruncateSync(fd, fstatSync(fd).size - written);
      } catch {
        // Not a regular file (a device, a pipe): nothing to take back.
      }
    }
    throw error;
  }
}

/**
 * Opens `file` for appending (creating its folder) and returns a log that writes one JSON object
 * per line with a `time` field (ms since epoch). Each line is written whole or not at all, so lines
 * are never interleaved or torn by a stop or a full disk. A write error stops the log, not the run.
 */
export async function openEventLog(file: string, options: EventLogOptions = {}): Promise<EventLog> {
  await makeFolders(dirname(file), 0o755);
  let fd: number | undefined = openSync(file, 'a');
  let failed = false;
  let dropped = 0;
  return {
    write(event) {
      if (fd === undefined) return;
      if (failed) {
        dropped++;
        return;
      }
      try {
        writeWhole(fd, Buffer.from(`${serialize(event)}\n`));
      } catch (error) {
        failed = true;
        dropped++;
        options.onWriteError?.(error instanceof Error ? error : new Error(String(error)));
      }
    },
    dropped: () => dropped,
    close() {
      if (fd === undefined) return;
      try {
        closeSync(fd);
      } catch {
        // A close error (EIO on a network disk) has nothing left to lose: the lines were written or reported.
      }
      fd = undefined;
    },
  };
}
