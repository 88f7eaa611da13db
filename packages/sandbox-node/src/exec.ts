import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { ExecOptions, ExecResult, IsolationMode } from '@aibuddy/sandbox';
import { SandboxArgumentError, SandboxUnavailableError } from '@aibuddy/sandbox';
import { CappedOutput } from './capped-output.js';
import { bubblewrapArgs, bubblewrapProblem } from './isolation.js';
import { groupAlive, markedStrays, signalEach, signalGroup } from './process-group.js';
import { randomBytes } from 'node:crypto';

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
}

/** A running command, so `close()` can end it. */
export interface RunningCommand {
  terminate(): Promise<void>;
}

const POLL_MS = 20;

/** Builds the command's environment: only the listed host variables, then the caller's. */
export function buildEnv(inherit: readonly string[], extra: Record<string, string> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of inherit) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (typeof value !== 'string' || name.includes('=') || name.includes('\0') || value.includes('\0') || name === '') {
      throw new SandboxArgumentError(`exec: environment variable ${JSON.stringify(name)} must be a string without "=" or null bytes.`);
    }
    env[name] = value;
  }
  return env;
}

/** Decides whether this command runs under bubblewrap. */
export function chooseIsolation(settings: ExecSettings): 'bubblewrap' | 'none' {
  if (settings.isolation === 'off') return 'none';
  const problem = bubblewrapProblem(settings.bubblewrap);
  if (problem === undefined) return 'bubblewrap';
  if (settings.isolation === 'required') {
    throw new SandboxUnavailableError(
      `exec: isolation is "required" but bubblewrap is not usable (${problem}). Install bubblewrap (bwrap) with user namespaces enabled, ` +
        'or configure isolation: "auto" to run unconfined.',
    );
  }
  return 'none';
}

/**
 * Runs `bash -c` in its own process group (detached), stdin closed, with an explicit
 * environment. Timeout or abort sends SIGTERM to the whole group and SIGKILL after the grace.
 * The call returns once the command itself has exited: if background children still hold the
 * pipes after a short drain, the group is ended the same way, so nothing is left running.
 */
export function runCommand(
  command: string,
  cwdReal: string,
  rootReal: string,
  options: ExecOptions | undefined,
  settings: ExecSettings,
  running: Set<RunningCommand>,
  spawnCwd: string = cwdReal,
): Promise<ExecResult> {
  const timeoutMs = options?.timeoutMs ?? settings.defaultTimeoutMs;
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
    throw new SandboxArgumentError(`exec: timeoutMs must be a positive number of milliseconds (got ${String(timeoutMs)}).`);
  }
  const env = buildEnv(settings.inheritEnv, options?.env);
  const isolation = chooseIsolation(settings);
  const [file, args] =
    isolation === 'bubblewrap'
      ? [settings.bubblewrap, [...bubblewrapArgs(rootReal, cwdReal), '--', settings.shell, '-c', command]]
      : [settings.shell, ['-c', command]];
  if (isolation === 'bubblewrap') env.TMPDIR = '/tmp';
  // Unconfined, a `setsid` daemon leaves the process group; this marker in its inherited
  // environment still finds it. (Under bubblewrap the PID namespace ends such processes.)
  const marker = `AIBUDDY_SANDBOX_RUN=${randomBytes(8).toString('hex')}`;
  if (isolation === 'none') env.AIBUDDY_SANDBOX_RUN = marker.slice(marker.indexOf('=') + 1);
  const strays = (pgid: number) => (isolation === 'none' ? markedStrays(marker, pgid, pgid) : []);

  const started = performance.now();
  return new Promise<ExecResult>((resolvePromise, reject) => {
    let child: ChildProcess;
    try {
      // spawnCwd may be /proc/self/fd/<held folder>: the child's chdir then goes through its own
      // inherited copy of that descriptor (confine-fs), so no path swap can move it.
      child = spawn(file, args, { cwd: spawnCwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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
