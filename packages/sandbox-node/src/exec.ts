import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { constants as osConstants } from 'node:os';
import type { ExecOptions, ExecResult } from '@aibuddy/sandbox';
import type { IsolationMode } from './config.js';
import { SandboxArgumentError, SandboxUnavailableError } from '@aibuddy/sandbox';
import { checkEncodable } from './file-input.js';
import { CappedOutput } from './capped-output.js';
import { bubblewrapArgs, nodeInstallPrefix } from './bwrap-args.js';
import { repairGit, snapshotGit } from './git-guard.js';
import {
  PID_NAMESPACE_INIT,
  bubblewrapProblem,
  bubblewrapProbe,
  pidNamespacePrefix,
  type IsolationDescription,
  type IsolationKind,
} from './isolation.js';
import {
  cgroupJoinPrefix,
  createPidsCgroup,
  describeLimits,
  prlimitAvailable,
  prlimitPrefix,
  type EffectiveLimits,
  type PidsCgroup,
} from './resource-limits.js';
import { groupAlive, markedStrays, processAlive, signalEach, signalGroup } from './process-group.js';
import { randomBytes } from 'node:crypto';
import { spawnCwd } from './held-cwd.js';

/** Settings of `exec`, from the adapter config. */
export interface ExecSettings {
  isolation: IsolationMode;
  bubblewrap: string;
  shell: string;
  inheritEnv: readonly string[];
  defaultTimeoutMs: number;
  killGraceMs: number;
  maxOutputBytes: number;
  /** After the command exits, how long to let its pipes drain before killing what is left. */
  drainMs: number;
  /** Per-command resource bounds. */
  limits: EffectiveLimits;
  /** Extra host paths bound read-only under bubblewrap. */
  readOnlyPaths: readonly string[];
  /** Check and repair `.git` folders after every command (see `git-guard.ts`). */
  protectGit: boolean;
  /** Use a PID namespace when bubblewrap is not used. */
  pidNamespace: boolean;
}

/** A running command, so `close()` can end it. */
export interface RunningCommand {
  terminate(): Promise<void>;
}

const POLL_MS = 20;

/**
 * Largest timer Node can arm: a longer delay overflows its 32-bit field and fires after 1 ms
 * (so a "24.9-day" timeout would kill the command at once).
 */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Largest command, in bytes: Linux refuses a single argument over MAX_ARG_STRLEN (32 pages,
 * 131,072 bytes) with E2BIG, and the command is one argument of `bash -c`.
 */
export const MAX_COMMAND_BYTES = 128 * 1024 - 1;

/** Builds the command's environment: only the listed host variables, then the caller's. */
export function buildEnv(inherit: readonly string[], extra: Record<string, string> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of inherit) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (typeof value !== 'string' || name.includes('=') || name.includes('\0') || value.includes('\0') || name === '') {
      throw new SandboxArgumentError(
        `exec: environment variable ${JSON.stringify(name)} must be a string without "=" or null bytes.`,
      );
    }
    checkEncodable('exec', 'an environment variable name', name);
    checkEncodable('exec', `environment variable ${JSON.stringify(name)}`, value);
    env[name] = value;
  }
  return env;
}

/** Checks a command and its timeout before anything runs; throws `SandboxArgumentError` with the fix. */
export function validateCommand(command: string, timeoutMs: number): void {
  if (typeof command !== 'string' || command.trim() === '') {
    throw new SandboxArgumentError('exec: the command must be a non-empty string.');
  }
  if (command.includes('\0')) {
    throw new SandboxArgumentError(
      'exec: the command contains a NUL byte, which no shell command can carry; remove it (write binary data with a file instead).',
    );
  }
  // Encoded for the shell, a lone surrogate would become U+FFFD: another command than the one sent (and approved).
  checkEncodable('exec', 'the command', command);
  const bytes = Buffer.byteLength(command, 'utf8');
  if (bytes > MAX_COMMAND_BYTES) {
    throw new SandboxArgumentError(
      `exec: the command is ${bytes} bytes, over the operating system's limit of ${MAX_COMMAND_BYTES} bytes for one argument; ` +
        'write the script to a file in the workspace and run that file instead.',
    );
  }
  if (!(typeof timeoutMs === 'number' && timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
    throw new SandboxArgumentError(`exec: timeoutMs must be a positive number of milliseconds (got ${String(timeoutMs)}).`);
  }
  if (timeoutMs > MAX_TIMEOUT_MS) {
    throw new SandboxArgumentError(
      `exec: timeoutMs is ${timeoutMs}, over the largest timer of ${MAX_TIMEOUT_MS} ms (about 24.8 days); give a shorter timeout.`,
    );
  }
}

/** Decides how this command runs: bubblewrap, its own PID namespace, or a plain process group. */
export function chooseIsolation(settings: Pick<ExecSettings, 'isolation' | 'bubblewrap'> & { pidNamespace?: boolean }): {
  kind: IsolationKind;
  reason?: string;
} {
  let reason: string | undefined;
  if (settings.isolation !== 'off') {
    const problem = bubblewrapProblem(settings.bubblewrap);
    if (problem === undefined) return { kind: 'bubblewrap' };
    if (settings.isolation === 'required') {
      throw new SandboxUnavailableError(
        `exec: isolation is "required" but bubblewrap is not usable (${problem}). Install bubblewrap (bwrap) with user namespaces enabled, ` +
          'or configure isolation: "auto" to run unconfined.',
      );
    }
    reason = `bubblewrap not usable: ${problem}`;
  } else reason = 'isolation is "off"';
  if (settings.pidNamespace === false)
    return { kind: 'none', reason: `${reason}; PID namespace turned off (pidNamespace: false)` };
  const pidns = pidNamespacePrefix();
  if ('prefix' in pidns) return { kind: 'pid-namespace', reason };
  return { kind: 'none', reason: `${reason}; no PID namespace either: ${pidns.problem}` };
}

/** What commands of these settings run in, and what that guarantees. */
export function describeExec(settings: ExecSettings): IsolationDescription {
  const { kind, reason } = chooseIsolation(settings);
  const cgroup = settings.limits.processes !== false && createPidsCgroup(settings.limits.processes);
  if (cgroup) void cgroup.remove();
  return {
    mode: kind,
    killsTree: kind !== 'none',
    ...(reason === undefined ? {} : { reason }),
    limits: describeLimits(settings.limits, Boolean(cgroup), prlimitAvailable()),
  };
}

/** The program and arguments that run `command` in the chosen mode, with limits applied inside. */
function commandLine(
  kind: IsolationKind,
  command: string,
  cwdReal: string,
  rootReal: string,
  settings: ExecSettings,
  cgroup: PidsCgroup | undefined,
): string[] {
  const limits = prlimitAvailable() ? prlimitPrefix(settings.limits, cgroup === undefined) : [];
  const shell = [...limits, settings.shell, '-c', command];
  let line: string[];
  if (kind === 'bubblewrap') {
    const probe = bubblewrapProbe(settings.bubblewrap);
    const features = 'features' in probe ? probe.features : { userNamespace: false, disableUserns: false };
    const node = nodeInstallPrefix();
    const layout = {
      rootReal,
      cwdReal,
      readOnlyPaths: [...(node === undefined ? [] : [node]), ...settings.readOnlyPaths],
      home: process.env.HOME,
      readOnlyInRoot: ['.git/hooks', '.git/config'],
    };
    line = [settings.bubblewrap, ...bubblewrapArgs(features, layout), '--', ...shell];
  } else if (kind === 'pid-namespace') {
    const pidns = pidNamespacePrefix();
    line = [...('prefix' in pidns ? pidns.prefix : []), ...PID_NAMESPACE_INIT, ...shell];
  } else line = shell;
  return cgroup === undefined ? line : [...cgroupJoinPrefix(cgroup), ...line];
}

/**
 * Runs `bash -c` in its own process group (detached), stdin closed, with an explicit
 * environment, under bubblewrap or in its own PID namespace where possible, with resource bounds.
 * Timeout or abort sends SIGTERM to the whole group and SIGKILL after the grace.
 * The call returns once the command itself has exited: if background children still hold the
 * pipes after a short drain, the group is ended the same way, so nothing is left running. Then
 * `.git` folders are checked and repaired (see `git-guard.ts`).
 */
export async function runCommand(
  command: string,
  cwdReal: string,
  rootReal: string,
  options: ExecOptions | undefined,
  settings: ExecSettings,
  running: Set<RunningCommand>,
): Promise<ExecResult> {
  const timeoutMs = options?.timeoutMs ?? settings.defaultTimeoutMs;
  validateCommand(command, timeoutMs);
  const env = buildEnv(settings.inheritEnv, options?.env);
  const { kind: isolation } = chooseIsolation(settings);
  const gitBefore = settings.protectGit ? await snapshotGit(rootReal) : undefined;
  const cgroup = settings.limits.processes === false ? undefined : createPidsCgroup(settings.limits.processes);
  const [file, ...args] = commandLine(isolation, command, cwdReal, rootReal, settings, cgroup);
  if (isolation === 'bubblewrap') env.TMPDIR = '/tmp';
  // Unconfined, a `setsid` daemon leaves the process group; this marker in its inherited
  // environment still finds it (unless it clears its environment: the cgroup, where there is
  // one, still holds it). In a PID namespace the kernel ends such processes.
  const marker = `AIBUDDY_SANDBOX_RUN=${randomBytes(8).toString('hex')}`;
  if (isolation === 'none') env.AIBUDDY_SANDBOX_RUN = marker.slice(marker.indexOf('=') + 1);
  const strays = (pgid: number) => {
    const found = isolation === 'none' ? markedStrays(marker, pgid, pgid) : [];
    for (const pid of cgroup?.members() ?? []) if (!found.includes(pid) && processAlive(pid)) found.push(pid);
    return found;
  };
  const after = async (result: ExecResult): Promise<ExecResult> => {
    await cgroup?.remove();
    if (gitBefore === undefined) return result;
    const notices = await repairGit(rootReal, gitBefore);
    return notices.length === 0 ? result : { ...result, notices };
  };

  let result: ExecResult;
  try {
    result = await spawnAndWait(file!, args, { cwdReal, env, timeoutMs, options, settings, running, strays, isolation });
  } catch (error) {
    await cgroup?.remove();
    throw error;
  }
  return after(result);
}

interface SpawnContext {
  cwdReal: string;
  env: Record<string, string>;
  timeoutMs: number;
  options: ExecOptions | undefined;
  settings: ExecSettings;
  running: Set<RunningCommand>;
  strays: (pgid: number) => number[];
  isolation: IsolationKind;
}

function signalName(number: number): NodeJS.Signals | undefined {
  return (Object.entries(osConstants.signals) as [NodeJS.Signals, number][]).find(([, n]) => n === number)?.[0];
}

function spawnAndWait(file: string, args: string[], ctx: SpawnContext): Promise<ExecResult> {
  const { cwdReal, env, timeoutMs, options, settings, running, strays, isolation } = ctx;
  const started = performance.now();
  return new Promise<ExecResult>((resolvePromise, reject) => {
    let child: ChildProcess;
    try {
      // The held working folder (/proc/self/fd/<fd>) when node-sandbox attached one (see held-cwd.ts).
      child = spawn(file, args, { cwd: spawnCwd(options, cwdReal), env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    } catch (error) {
      reject(error);
      return;
    }
    const pgid = child.pid;
    const out = new CappedOutput(settings.maxOutputBytes);
    const err = new CappedOutput(settings.maxOutputBytes);
    const outDecoder = new StringDecoder('utf8');
    const errDecoder = new StringDecoder('utf8');
    const emit = (fn: ((chunk: string) => void) | undefined, text: string) => {
      if (!fn || text === '') return;
      try {
        fn(text);
      } catch {
        // A throwing listener must not break the command or the host.
      }
    };
    child.stdout!.on('data', (chunk: Buffer) => {
      out.push(chunk);
      if (options?.onStdout) emit(options.onStdout, outDecoder.write(chunk));
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      err.push(chunk);
      if (options?.onStderr) emit(options.onStderr, errDecoder.write(chunk));
    });

    let timedOut = false;
    let aborted = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let exited = false;
    let closed = false;
    let termination: Promise<void> | undefined;
    let settled = false;

    /** SIGTERM to the group; SIGKILL after the grace if anything is left; resolves when the group is gone. */
    const terminate = (): Promise<void> => {
      if (pgid === undefined) return Promise.resolve();
      termination ??= new Promise<void>((done) => {
        signalGroup(pgid, 'SIGTERM');
        signalEach(strays(pgid), 'SIGTERM');
        const killAt = Date.now() + settings.killGraceMs;
        let killed = false;
        const tick = () => {
          const left = strays(pgid);
          const alive = groupAlive(pgid) || !exited || left.length > 0;
          if (!alive) return done();
          if (!killed && Date.now() >= killAt) {
            killed = true;
            signalGroup(pgid, 'SIGKILL');
            signalEach(left, 'SIGKILL');
          }
          // After SIGKILL the kernel ends everything promptly; stop waiting after a bounded time.
          if (killed && Date.now() >= killAt + 2000) return done();
          setTimeout(tick, POLL_MS);
        };
        setTimeout(tick, POLL_MS);
      });
      return termination;
    };
    const handle: RunningCommand = { terminate };
    running.add(handle);

    const timer = setTimeout(() => {
      timedOut = true;
      void terminate();
    }, timeoutMs);
    const onAbort = () => {
      aborted = true;
      void terminate();
    };
    options?.signal?.addEventListener('abort', onAbort, { once: true });

    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options?.signal?.removeEventListener('abort', onAbort);
      running.delete(handle);
      child.stdout!.destroy();
      child.stderr!.destroy();
      emit(options?.onStdout, outDecoder.end());
      emit(options?.onStderr, errDecoder.end());
      resolvePromise({
        exitCode,
        signal: exitSignal,
        stdout: out.text(),
        stderr: err.text(),
        truncated: out.truncated || err.truncated,
        timedOut,
        aborted,
        durationMs: Math.round(performance.now() - started),
        isolation,
      });
    };

    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options?.signal?.removeEventListener('abort', onAbort);
      running.delete(handle);
      reject(error);
    });
    let afterExit: (() => void) | undefined;
    child.on('close', () => {
      closed = true;
      afterExit?.();
    });
    child.on('exit', (code, signal) => {
      exited = true;
      // The command itself has ended: a later cleanup of leftovers is not a timeout.
      clearTimeout(timer);
      exitCode = code;
      exitSignal = signal;
      // In a PID namespace the command's status comes through the namespace's init as 128 + N;
      // when this call sent the signal (timeout, abort), report it as the signal it is.
      const sent = termination !== undefined && isolation === 'pid-namespace' && code !== null && code > 128;
      const name = sent ? signalName(code - 128) : undefined;
      if (name !== undefined) {
        exitCode = null;
        exitSignal = name;
      }
      // Let the pipes drain; then end whatever the command left behind (background children
      // holding the pipes, or not), so the call returns now and nothing keeps running.
      let done = false;
      const drainTimer = setTimeout(() => afterExit?.(), settings.drainMs);
      afterExit = () => {
        if (done) return;
        done = true;
        clearTimeout(drainTimer);
        if (pgid === undefined || (!groupAlive(pgid) && strays(pgid).length === 0)) return finish();
        void terminate().then(finish);
      };
      if (closed) afterExit();
    });
  });
}
