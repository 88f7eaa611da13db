import type { StreamCapture } from './output-capture.js';
import { formatDuration, headTail, splitBudget } from './model-view.js';

/** The raw result of an `execute` call: everything, for the client and persistence. */
export interface ExecuteOutput {
  /** The command as run. */
  command: string;
  /** The working directory, workspace-relative (`.` for the root). */
  cwd: string;
  /** Exit code; `null` when the process was killed by a signal. */
  exitCode: number | null;
  /** The signal that ended it, if any. */
  signal: string | null;
  /** Full stdout (see `stdoutComplete`). */
  stdout: string;
  /** Full stderr (see `stderrComplete`). */
  stderr: string;
  /** Exact number of characters written to stdout. */
  stdoutLength: number;
  /** Exact number of characters written to stderr. */
  stderrLength: number;
  /** False when stdout exceeded the raw capture cap and only its head and tail were kept. */
  stdoutComplete: boolean;
  /** False when stderr exceeded the raw capture cap. */
  stderrComplete: boolean;
  /** True when the timeout killed the command. */
  timedOut: boolean;
  /** True when a user stop or parent cancel killed it. */
  stopped: boolean;
  /** The timeout that applied (ms). */
  timeoutMs: number;
  /** Wall time (ms). */
  durationMs: number;
  /** OS isolation the sandbox reported, if any. */
  isolation?: 'bubblewrap' | 'pid-namespace' | 'none';
  /** What the sandbox undid or set aside after the command (e.g. a planted git hook), if anything. */
  notices?: string[];
}

/** Exact heads and tails of both streams, kept beside a result (never serialised) for its model view. */
const captures = new WeakMap<ExecuteOutput, { stdout: StreamCapture; stderr: StreamCapture }>();

/** Attaches the exact captures to a result, so its model view does not depend on the raw cap. */
export function attachCaptures(output: ExecuteOutput, stdout: StreamCapture, stderr: StreamCapture): ExecuteOutput {
  captures.set(output, { stdout, stderr });
  return output;
}

/** What the model view of a command says, in numbers. */
export interface ExecuteModelView {
  /** The whole text sent to the model. */
  text: string;
  /** The header (status lines), before the output sections. */
  header: string;
  /** Characters of stdout omitted from the middle. */
  stdoutOmitted: number;
  /** Characters of stderr omitted from the middle. */
  stderrOmitted: number;
}

const STDOUT_LABEL = '--- stdout ---\n';
const STDERR_LABEL = '--- stderr ---\n';

function captureOf(output: ExecuteOutput, stream: 'stdout' | 'stderr'): StreamCapture {
  const kept = captures.get(output)?.[stream];
  if (kept) return kept;
  // A result read back from persistence: its full text is all there is.
  const full = output[stream];
  const total = Math.max(output[`${stream}Length`] ?? full.length, full.length);
  return { total, head: full, tail: full, full, complete: output[`${stream}Complete`] ?? true };
}

/**
 * The model's view of a command: a short header (exit code, duration, timed out / stopped, output
 * sizes) and at most `budget` characters of output, head and tail of each stream with the exact
 * number of characters omitted in the middle.
 */
export function formatExecuteModelView(output: ExecuteOutput, budget: number): ExecuteModelView {
  const stdout = captureOf(output, 'stdout');
  const stderr = captureOf(output, 'stderr');
  const labels = (stdout.total > 0 ? STDOUT_LABEL.length : 0) + (stderr.total > 0 ? STDERR_LABEL.length + 1 : 0);
  const shares = splitBudget(stdout.total, stderr.total, Math.max(0, budget - labels));
  const out = stdout.total > 0 ? headTail(stdout, shares.stdout, 'stdout') : { text: '', omitted: 0 };
  const err = stderr.total > 0 ? headTail(stderr, shares.stderr, 'stderr') : { text: '', omitted: 0 };

  const status: string[] = [];
  status.push(
    output.exitCode === null ? `exit code: none (killed by ${output.signal ?? 'a signal'})` : `exit code: ${output.exitCode}`,
  );
  status.push(`duration: ${formatDuration(output.durationMs)}`);
  const lines = [status.join(' | ')];
  if (output.timedOut)
    lines.push(
      `TIMED OUT after ${formatDuration(output.timeoutMs)}: the command and its child processes were killed; output below is what it printed until then.`,
    );
  if (output.stopped) lines.push('STOPPED by the user (or a parent cancel): the command and its child processes were killed.');
  for (const notice of output.notices ?? []) lines.push(`SANDBOX: ${notice}`);
  const sizes = (name: string, total: number, omitted: number) =>
    `${name}: ${total} characters${omitted > 0 ? ` (${omitted} omitted in the middle)` : ''}`;
  lines.push(`${sizes('stdout', stdout.total, out.omitted)}; ${sizes('stderr', stderr.total, err.omitted)}`);
  const header = `${lines.join('\n')}\n`;

  const sections: string[] = [];
  if (stdout.total > 0) sections.push(`${STDOUT_LABEL}${out.text}`);
  if (stderr.total > 0) sections.push(`${STDERR_LABEL}${err.text}`);
  const body = sections.length === 0 ? '(no output)' : sections.join('\n');
  return { text: `${header}${body}`, header, stdoutOmitted: out.omitted, stderrOmitted: err.omitted };
}
