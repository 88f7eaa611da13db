import { modelOutputText } from '@aibuddy/runtime';
import type { AgentEvent } from './events.js';
import { escapeControl, escapeControlLine, plural, tidyMessage } from './terminal-text.js';

/** Where the renderer writes. */
export interface RendererOutput {
  /** Writes text. */
  write(text: string): unknown;
  /** Whether the output is a terminal (colours, more frequent progress lines). */
  isTTY?: boolean;
}

/** Options of {@link createRenderer}. */
export interface RendererOptions {
  /** Where to write (default `process.stdout`). */
  out?: RendererOutput;
  /** Colours (default: when the output is a TTY and `NO_COLOR` is unset). */
  color?: boolean;
  /** A "still running" line is printed every this many ms for long calls (default 10 s; 0 turns it off). */
  elapsedEveryMs?: number;
  /**
   * Lines of live output shown per call (default 20); later lines are counted and summarised, so a
   * command that prints megabytes does not flood the terminal. The event log keeps every chunk.
   */
  liveOutputLines?: number;
}

/** Shows a run in the terminal as it happens. */
export interface Renderer {
  /** Assistant text as it streams. */
  text(delta: string): void;
  /** A model step ended: the next text starts on a new line. */
  endStep(): void;
  /** Any agent event. */
  event(event: AgentEvent): void;
  /** A note from the host (workspace, task id, hints). */
  note(text: string): void;
  /** Stops timers. */
  close(): void;
}

const MAX_INPUT_PREVIEW = 160;

function preview(value: unknown, max = MAX_INPUT_PREVIEW): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  text = escapeControlLine((text ?? '').replace(/[ \t\n]+/g, ' '));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A one-line summary of a client projection (display fields first, then common result shapes). */
function clientSummary(client: unknown): string {
  if (typeof client === 'string') return client;
  if (typeof client !== 'object' || client === null) return String(client);
  const c = client as Record<string, unknown>;
  for (const key of ['summary', 'display', 'title']) if (typeof c[key] === 'string') return c[key] as string;
  if (typeof c.exitCode === 'number' || c.exitCode === null) {
    // What the command wrote (exact counts), not what the capture kept of a very long output.
    const written = (length: unknown, kept: unknown): number =>
      typeof length === 'number' ? length : typeof kept === 'string' ? kept.length : 0;
    const out = written(c.stdoutLength, c.stdout) + written(c.stderrLength, c.stderr);
    return `exit code ${String(c.exitCode)}${c.timedOut ? ' (timed out)' : ''}; ${plural(out, 'character')} of output`;
  }
  if (Array.isArray(c.content)) {
    const text = (c.content as Array<{ type?: string; text?: string }>)
      .filter((p) => p.type === 'text')
      .map((p) => p.text)
      .join(' ');
    if (text) return text;
  }
  return JSON.stringify(client);
}

/** One field on one line, control characters shown escaped. */
const one = (value: unknown): string => escapeControlLine(String(value));

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * A terminal renderer: assistant text as it streams, each tool call with its input, live command
 * output, "still running" lines with the elapsed time of long calls, confirmation requests and
 * decisions, compactions, and each result (or its failure with the stage).
 */
export function createRenderer(options: RendererOptions = {}): Renderer {
  const out = options.out ?? process.stdout;
  const color = options.color ?? (out.isTTY === true && !process.env.NO_COLOR);
  const paint = (code: string) => (s: string) => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const dim = paint('2');
  const cyan = paint('36');
  const red = paint('31');
  const green = paint('32');
  const yellow = paint('33');
  const elapsedEvery = options.elapsedEveryMs ?? 10_000;
  const liveLimit = options.liveOutputLines ?? 20;
  const shown = new Set<string>();
  const running = new Map<string, { toolName: string; started: number; lastNotice: number; lines: number; hidden: number }>();
  let atLineStart = true;
  let outputOpen: string | undefined;
  // Whether the last thing written was assistant text (a new text block after tool lines gets a blank line).
  let inText = false;
  let wroteAnything = false;

  const write = (s: string) => {
    if (s.length === 0) return;
    out.write(s);
    wroteAnything = true;
    atLineStart = s.endsWith('\n');
  };
  const line = (s: string) => {
    if (!atLineStart) write('\n');
    outputOpen = undefined;
    inText = false;
    write(`${s}\n`);
  };

  const timer =
    elapsedEvery > 0
      ? setInterval(
          () => {
            const now = Date.now();
            for (const call of running.values()) {
              if (now - call.lastNotice >= elapsedEvery) {
                call.lastNotice = now;
                line(dim(`  … ${one(call.toolName)} still running (${Math.round((now - call.started) / 1000)} s)`));
              }
            }
          },
          Math.min(1000, elapsedEvery),
        )
      : undefined;
  timer?.unref?.();

  return {
    text(delta) {
      if (delta === '') return;
      if (!inText) {
        if (!atLineStart) write('\n');
        if (wroteAnything) write('\n');
        inText = true;
      }
      outputOpen = undefined;
      write(escapeControl(delta));
    },
    endStep() {
      if (!atLineStart) write('\n');
      inText = false;
    },
    note(text) {
      line(dim(escapeControl(text)));
    },
    event(event) {
      switch (event.type) {
        case 'tool-call':
          running.set(event.toolCallId, {
            toolName: event.toolName,
            started: Date.now(),
            lastNotice: Date.now(),
            lines: 0,
            hidden: 0,
          });
          line(`${cyan('→')} ${one(event.toolName)} ${dim(preview(event.input))} ${dim(`[${one(event.toolCallId)}]`)}`);
          break;
        case 'tool-output': {
          const call = running.get(event.toolCallId);
          let text = event.chunk;
          if (call) {
            // Show whole lines up to the limit; count the rest.
            const room = Math.max(0, liveLimit - call.lines);
            const parts = text.split('\n');
            const complete = parts.length - 1;
            if (complete > room) {
              text = parts.slice(0, room).join('\n') + (room > 0 ? '\n' : '');
              call.hidden += complete - room + (parts.at(-1) ? 1 : 0);
              call.lines = liveLimit;
            } else if (room === 0) {
              call.hidden += complete;
              text = '';
            } else {
              call.lines += complete;
            }
          }
          if (text === '') break;
          if (outputOpen !== event.toolCallId) {
            if (!atLineStart) write('\n');
            outputOpen = event.toolCallId;
          }
          const visible = escapeControl(text);
          const chunk = event.stream === 'stderr' ? yellow(visible) : visible;
          write(chunk.replace(/(^|\n)(?=.)/g, `$1${dim('│ ')}`));
          break;
        }
        case 'heartbeat':
          break;
        case 'tool-finished':
        case 'tool-result': {
          // The runtime reports a call twice (finished at once, result once the model view is
          // final); other calls only as a result. Each call is shown once, as soon as possible.
          if (shown.has(event.toolCallId)) break;
          shown.add(event.toolCallId);
          const call = running.get(event.toolCallId);
          if (call && call.hidden > 0)
            line(dim(`│ … ${plural(call.hidden, 'more line')} not shown here (--events keeps every chunk)`));
          running.delete(event.toolCallId);
          if (event.error) {
            line(
              `${red('✗')} ${one(event.toolName)} ${red(one(tidyMessage(event.error.message)))} ${dim(`(${seconds(event.durationMs)})`)}`,
            );
          } else {
            const summary = event.type === 'tool-result' ? modelOutputText(event.model) : clientSummary(event.client);
            line(`${green('✓')} ${one(event.toolName)} ${dim(`(${seconds(event.durationMs)})`)} ${dim(preview(summary, 120))}`);
          }
          break;
        }
        case 'confirm-request':
          line(
            `${yellow('?')} confirmation needed for ${one(event.toolName)} [${one(event.toolCallId)}]: ${one(event.impact)} (target: ${one(event.target)}, scope: ${one(event.scope)})`,
          );
          break;
        case 'confirm-decision':
          line(
            event.approved
              ? green(`  approved${event.reason ? `: ${one(event.reason)}` : ''}`)
              : red(`  rejected${event.reason ? `: ${one(event.reason)}` : ''}`),
          );
          break;
        case 'compaction':
          line(
            dim(
              `  ⇣ compacted ${one(event.toolCallId)} for later steps (${event.strategy}): ${event.originalTokens} → ${event.compactedTokens} tokens` +
                (event.pointer ? `; raw result kept at ${one(event.pointer)}` : ''),
            ),
          );
          break;
        case 'model-request':
          break;
        case 'run-start':
        case 'run-end':
          break;
      }
    },
    close() {
      if (timer) clearInterval(timer);
      if (!atLineStart) write('\n');
    },
  };
}
