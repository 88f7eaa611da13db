import { defineTool, ToolError } from '@aibuddy/registry';
import type { ToolDefinition, ToolExecutionContext } from '@aibuddy/registry';
import {
  createLinkResolver,
  SandboxAbortedError,
  findLoneSurrogate,
  SandboxArgumentError,
  SandboxError,
  SandboxNotAFileError,
  SandboxNotFoundError,
  SandboxPathError,
  SandboxTimeoutError,
} from '@aibuddy/sandbox';
import type { ExecResult, ISandbox } from '@aibuddy/sandbox';
import { z } from 'zod';
import type { AllowRule } from './classify-command.js';
import type { CommandImpactRule } from './command-impact.js';
import { createCommandPolicy } from './command-policy.js';
import type { CommandPolicy } from './command-policy.js';
import { attachCaptures, formatExecuteModelView } from './exec-result.js';
import type { ExecuteOutput } from './exec-result.js';
import { formatDuration } from './model-view.js';
import { captureString, StreamCollector } from './output-capture.js';
import { OUTPUT_COALESCE_CHARS, OUTPUT_COALESCE_MS, OutputCoalescer } from './output-coalescer.js';

/** Limits and policy of `execute`. Every constant is injectable so tests need not wait for real timers. */
export interface ExecuteToolOptions {
  /** Timeout when the model gives none (ms). Default 120,000 (2 minutes). */
  defaultTimeoutMs?: number;
  /** Largest timeout the model may ask for (ms). Default 600,000 (10 minutes). */
  maxTimeoutMs?: number;
  /**
   * Grace the JavaScript side adds to the sandbox timeout before it gives up on the sandbox (ms).
   * Default 30,000: the hard deadline is timeout + 30 s, after which the call fails at the
   * `execution` stage even when the sandbox never answers.
   */
  graceMs?: number;
  /** Characters of output the model sees, head and tail, omission marker included. Default 30,000. */
  maxModelChars?: number;
  /** Characters per stream kept in the raw result for clients and persistence. Default 8,000,000. */
  maxRawChars?: number;
  /** Environment given to every command (the sandbox decides what else is inherited). */
  env?: Record<string, string>;
  /**
   * Host allow rules: command prefixes that run without confirmation (`"npm test"` allows
   * `npm test -- --watch`, not `npm testx` nor `npm test; rm -rf /`). Everything else that the
   * classifier cannot prove harmless needs a person's confirmation.
   */
  allow?: ReadonlyArray<string | AllowRule>;
  /** Workspace-relative paths that commands may not write to without confirmation (every `.git` is always protected). */
  protectedPaths?: readonly string[];
  /** Host rules that flag commands as high impact even when they are harmless or allowed (see `assessCommandImpact`). */
  impactRules?: readonly CommandImpactRule[];
  /** Longest wait of live output before it is sent to the client (ms). Default 50. */
  outputCoalesceMs?: number;
  /** Live output is sent at once when this many characters are buffered. Default 65,536. */
  outputCoalesceChars?: number;
  /** A ready policy; when given, `allow`, `protectedPaths` and `impactRules` are ignored. */
  commandPolicy?: CommandPolicy;
}

/** Default timeout of `execute` (ms). */
export const DEFAULT_EXECUTE_TIMEOUT_MS = 120_000;
/** Largest timeout of `execute` (ms). */
export const MAX_EXECUTE_TIMEOUT_MS = 600_000;
/** JS-side grace beyond the sandbox timeout (ms): the hard deadline is timeout + grace. */
export const EXECUTE_GRACE_MS = 30_000;
/** Characters of command output the model sees. */
export const EXECUTE_MAX_MODEL_CHARS = 30_000;
const DEFAULT_MAX_RAW_CHARS = 8_000_000;
/**
 * Largest command in bytes: Linux refuses one argument over 131,072 bytes (MAX_ARG_STRLEN) with
 * E2BIG, and the command is one argument of `bash -c`. Checked here so the model hears it at the
 * parameters stage, before any confirmation is asked.
 */
export const EXECUTE_MAX_COMMAND_BYTES = 128 * 1024 - 1;
/** Largest delay a Node timer can hold (a longer one fires after 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The input schema of `execute`, as the model sees it (the timeout bounds come from the tool's
 * options). `ExecuteInput` is derived from it, so the schema is the one source of the input's shape.
 */
export function executeInputSchema({ defaultTimeoutMs, maxTimeoutMs }: { defaultTimeoutMs: number; maxTimeoutMs: number }) {
  const maxSeconds = maxTimeoutMs / 1000;
  return z.object({
    command: z
      .string()
      .trim()
      .min(1, 'command is empty: give the shell command line to run.')
      .refine(
        (command) => !command.includes('\0'),
        'command contains a NUL byte (\\0), which no shell command can carry: remove it.',
      )
      .superRefine((command, ctx) => {
        // Encoded for the shell, half of a UTF-16 pair (a cut emoji) becomes U+FFFD: the command that
        // ran would not be the one a person approved.
        const found = findLoneSurrogate(command);
        if (found)
          ctx.addIssue({
            code: 'custom',
            message: `command has a lone surrogate (U+${found.code} at character ${found.index}), half of a character UTF-8 cannot carry: send the character whole, or leave it out.`,
          });
      })
      .refine(
        (command) => Buffer.byteLength(command, 'utf8') <= EXECUTE_MAX_COMMAND_BYTES,
        `command is over ${EXECUTE_MAX_COMMAND_BYTES} bytes, the operating system's limit for one argument: write the script to a file with write_file and run that file.`,
      )
      .describe('The shell command line to run (bash syntax).'),
    timeout: z
      .number()
      .positive('timeout must be a positive number of seconds.')
      .max(maxSeconds, `timeout is in seconds and at most ${maxSeconds} (${formatDuration(maxTimeoutMs)}).`)
      .optional()
      .describe(
        `Timeout in SECONDS (default ${defaultTimeoutMs / 1000}, at most ${maxSeconds}). The command and its child processes are killed when it passes.`,
      ),
    cwd: z.string().min(1).optional().describe('Working directory, relative to the workspace root (default: the root).'),
  });
}

/** The input of `execute` (derived from {@link executeInputSchema}). */
export type ExecuteInput = z.output<ReturnType<typeof executeInputSchema>>;

function sandboxError(error: unknown, input: ExecuteInput, stopped: boolean): ToolError {
  const toolName = 'execute';
  if (SandboxPathError.isInstance(error)) {
    return new ToolError(`cwd "${input.cwd}" is outside the workspace: ${(error as Error).message}`, {
      stage: 'parameters',
      toolName,
      cause: error,
      hint: 'Give a cwd relative to the workspace root (for example "packages/app"), or omit it.',
    });
  }
  if (SandboxArgumentError.isInstance(error)) {
    return new ToolError(`the command was refused before it ran: ${(error as Error).message}`, {
      stage: 'parameters',
      toolName,
      cause: error,
      hint: 'Fix the command (or write a long script to a file with write_file and run the file).',
    });
  }
  if (SandboxNotFoundError.isInstance(error) || SandboxNotAFileError.isInstance(error)) {
    return new ToolError(`cwd "${input.cwd}" is not a directory of the workspace: ${(error as Error).message}`, {
      stage: 'parameters',
      toolName,
      cause: error,
      hint: 'Check the folder with ls, or omit cwd to run in the workspace root.',
    });
  }
  if (SandboxAbortedError.isInstance(error) || stopped) {
    return new ToolError('stopped by the user (or a parent cancel); the command and its child processes were killed.', {
      stage: 'execution',
      toolName,
      cause: error,
      retryable: false,
      sideEffectsPossible: true,
    });
  }
  if (SandboxTimeoutError.isInstance(error)) {
    return new ToolError(`the sandbox timed out: ${(error as Error).message}`, {
      stage: 'execution',
      toolName,
      cause: error,
      sideEffectsPossible: true,
      hint: 'Split the work into shorter commands or raise timeout (seconds).',
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ToolError(`the sandbox could not run the command: ${message}`, {
    stage: 'execution',
    toolName,
    cause: error,
    sideEffectsPossible: true,
    hint: SandboxError.isInstance(error) ? `(sandbox error ${error.code})` : 'Check the command and try again.',
  });
}

/**
 * Creates the `execute` tool bound to one sandbox. The sandbox timeout bounds the command; the
 * hard deadline (timeout + grace) bounds the call even if the sandbox never answers.
 */
export function createExecuteTool(
  sandbox: ISandbox,
  options: ExecuteToolOptions = {},
): ToolDefinition<ExecuteInput, ExecuteOutput> {
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_EXECUTE_TIMEOUT_MS;
  const maxTimeoutMs = options.maxTimeoutMs ?? MAX_EXECUTE_TIMEOUT_MS;
  const graceMs = options.graceMs ?? EXECUTE_GRACE_MS;
  const maxModelChars = options.maxModelChars ?? EXECUTE_MAX_MODEL_CHARS;
  const maxRawChars = Math.max(options.maxRawChars ?? DEFAULT_MAX_RAW_CHARS, maxModelChars * 2);
  const maxSeconds = maxTimeoutMs / 1000;
  if (!(maxTimeoutMs > 0) || maxTimeoutMs + graceMs > MAX_TIMER_MS) {
    throw new RangeError(
      `createExecuteTool: maxTimeoutMs (${maxTimeoutMs}) + graceMs (${graceMs}) must be positive and at most ${MAX_TIMER_MS} ms (about 24.8 days), the longest timer Node can hold.`,
    );
  }
  // Built before the tool exists: an unusable allow rule fails here, not at the first command.
  const policy =
    options.commandPolicy ??
    createCommandPolicy({
      ...(options.allow ? { allow: options.allow } : {}),
      workspaceRoot: sandbox.root,
      // On a local folder, redirections through symlinks are judged by where they lead.
      ...(sandbox.type === 'node' ? { resolveLinks: createLinkResolver(sandbox.root) } : {}),
      ...(options.protectedPaths ? { protectedPaths: options.protectedPaths } : {}),
      ...(options.impactRules ? { rules: options.impactRules } : {}),
    });

  const inputSchema = executeInputSchema({ defaultTimeoutMs, maxTimeoutMs });

  return defineTool({
    name: 'execute',
    description:
      'Runs a shell command in the workspace and returns its exit code, duration and output. ' +
      `Long output is cut to its head and tail (${maxModelChars} characters in all) with the number of characters omitted; ` +
      'pipe through grep/head/tail to see a part. A non-zero exit code is a normal result. ' +
      `Commands are killed after timeout seconds (default ${defaultTimeoutMs / 1000}, max ${maxSeconds}). ` +
      'Use the file tools, not cat/sed/echo, to read and edit files.',
    inputSchema,
    impact: (input) => policy.assess(input.command, { cwd: input.cwd }),
    execute: (input, context) =>
      runExecute(sandbox, input, context, {
        defaultTimeoutMs,
        graceMs,
        maxModelChars,
        maxRawChars,
        env: options.env,
        coalesceMs: options.outputCoalesceMs ?? OUTPUT_COALESCE_MS,
        coalesceChars: options.outputCoalesceChars ?? OUTPUT_COALESCE_CHARS,
      }),
    toModelOutput: ({ output }) => formatExecuteModelView(output, maxModelChars).text,
  });
}

interface RunSettings {
  defaultTimeoutMs: number;
  graceMs: number;
  maxModelChars: number;
  maxRawChars: number;
  env: Record<string, string> | undefined;
  coalesceMs: number;
  coalesceChars: number;
}

async function runExecute(
  sandbox: ISandbox,
  input: ExecuteInput,
  context: ToolExecutionContext,
  settings: RunSettings,
): Promise<ExecuteOutput> {
  const timeoutMs = input.timeout === undefined ? settings.defaultTimeoutMs : Math.max(1, Math.round(input.timeout * 1000));
  const deadlineMs = timeoutMs + settings.graceMs;
  const stdout = new StreamCollector(settings.maxModelChars, settings.maxRawChars);
  const stderr = new StreamCollector(settings.maxModelChars, settings.maxRawChars);
  // Live output reaches the collectors and the client in coalesced chunks (by time and size), so
  // the event stream and the memory behind it stay bounded whatever the command writes.
  const liveOut = new OutputCoalescer(
    (chunk) => {
      stdout.push(chunk);
      context.emitOutput('stdout', chunk);
    },
    settings.coalesceMs,
    settings.coalesceChars,
  );
  const liveErr = new OutputCoalescer(
    (chunk) => {
      stderr.push(chunk);
      context.emitOutput('stderr', chunk);
    },
    settings.coalesceMs,
    settings.coalesceChars,
  );
  // Our own controller: aborted by the caller's signal, and by the hard deadline, so that a
  // sandbox that is merely slow to answer still gets told to kill the process tree.
  const controller = new AbortController();
  const onAbort = () => controller.abort(context.signal.reason);
  if (context.signal.aborted) onAbort();
  else context.signal.addEventListener('abort', onAbort, { once: true });

  let deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    deadlineTimer = setTimeout(() => {
      liveOut.flush();
      liveErr.flush();
      const error = new ToolError(
        `no answer from the sandbox within the hard deadline of ${formatDuration(deadlineMs)} (timeout ${formatDuration(timeoutMs)} + ${formatDuration(settings.graceMs)} grace); the call was abandoned and the sandbox was told to kill the command.`,
        {
          stage: 'execution',
          toolName: 'execute',
          sideEffectsPossible: true,
          hint: 'The command may still be running or may have had effects; check the workspace with a short command before retrying.',
          details: {
            timeoutMs,
            graceMs: settings.graceMs,
            partialStdout: stdout.capture().tail,
            partialStderr: stderr.capture().tail,
          },
        },
      );
      controller.abort(error);
      reject(error);
    }, deadlineMs);
  });

  const started = Date.now();
  let result: ExecResult;
  try {
    result = await Promise.race([
      sandbox.exec(input.command, {
        ...(input.cwd === undefined ? {} : { cwd: input.cwd }),
        ...(settings.env === undefined ? {} : { env: settings.env }),
        timeoutMs,
        signal: controller.signal,
        onStdout: (chunk) => liveOut.push(chunk),
        onStderr: (chunk) => liveErr.push(chunk),
      }),
      deadline,
    ]);
  } catch (error) {
    if (ToolError.isInstance(error)) throw error;
    throw sandboxError(error, input, context.signal.aborted);
  } finally {
    clearTimeout(deadlineTimer);
    context.signal.removeEventListener('abort', onAbort);
    // Every byte that streamed reaches the client before the result does.
    liveOut.flush();
    liveErr.flush();
  }

  // `truncated` is one flag for both streams. A stream that neither streamed nor came back was empty,
  // and an empty stream is complete whichever stream the cap cut (a cut stream keeps its head and tail).
  const cutBySandbox = (streamedNothing: boolean, returned: string): boolean =>
    streamedNothing && result.truncated && returned.length > 0;
  // Prefer what streamed (exact, uncapped by the adapter's byte cap); fall back to the result for
  // adapters that do not stream.
  const out = stdout.empty ? captureString(result.stdout, settings.maxModelChars) : stdout.capture();
  const err = stderr.empty ? captureString(result.stderr, settings.maxModelChars) : stderr.capture();
  const output: ExecuteOutput = {
    command: input.command,
    cwd: input.cwd ?? '.',
    exitCode: result.exitCode,
    signal: result.signal ?? null,
    stdout: out.full,
    stderr: err.full,
    stdoutLength: out.total,
    stderrLength: err.total,
    stdoutComplete: out.complete && !cutBySandbox(stdout.empty, result.stdout),
    stderrComplete: err.complete && !cutBySandbox(stderr.empty, result.stderr),
    timedOut: result.timedOut,
    stopped: result.aborted === true || context.signal.aborted,
    timeoutMs,
    durationMs: result.durationMs ?? Date.now() - started,
    ...(result.isolation ? { isolation: result.isolation } : {}),
    ...(result.notices && result.notices.length > 0 ? { notices: result.notices } : {}),
  };
  return attachCaptures(output, out, err);
}
