import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { endMarked, killMarkedNow, newTreeMark, TREE_MARK_VARIABLE, treeMarkValue } from './tree-mark.js';

/** The largest message a server may send, as in the SDK's own stdio transport (10 MiB). */
export const MCP_STDIO_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** How to start a stdio server in its own process group. */
export interface ProcessGroupTransportOptions {
  /** The executable. */
  command: string;
  /** Its arguments. */
  args?: readonly string[];
  /** Added to the SDK's minimal safe environment (PATH, HOME, ...). */
  env?: Record<string, string>;
  /** Working directory. */
  cwd?: string;
  /** Largest message accepted from the server (default {@link MCP_STDIO_MAX_MESSAGE_BYTES}). */
  maxMessageBytes?: number;
  /** On close: how long the server may take to exit after stdin ends, and again after SIGTERM (default 1 s). */
  graceMs?: number;
}

// Trees still alive (process group → tree mark), killed when the host exits however it exits:
// detached servers no longer get the terminal's Ctrl-C, so the host must not leave them behind.
const liveTrees = new Map<number, string>();
let exitHookInstalled = false;
function trackTree(pgid: number, mark: string): void {
  liveTrees.set(pgid, mark);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    if (liveTrees.size === 0) return;
    for (const id of liveTrees.keys()) signalGroup(id, 'SIGKILL');
    killMarkedNow(liveTrees.values());
  });
}

function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: no process of the group is left.
  }
}

// Not unref'd: the waits of a shutdown (grace periods, polling the group) are bounded, and once the
// killed server's own handle is gone they may be all that keeps the host's event loop alive; an
// unref'd wait then never ends, `close()` never resolves and the host exits with code 13.
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function groupGone(pgid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (signalGroup(pgid, 0)) {
    if (Date.now() >= deadline) return false;
    await sleep(20);
  }
  return true;
}

/**
 * An MCP client transport over a child process's stdio, like the SDK's `StdioClientTransport`, but
 * the server runs in a process group of its own (`detached: true`, so `setsid`) and `close` ends the
 * whole tree: a server started through a wrapper (`npx`, `uvx`, a shell script) that forks children
 * leaves none behind. Close order: stdin ends; after `graceMs` the group gets SIGTERM, after another
 * `graceMs` SIGKILL; once the server itself has exited, what is left of its group gets SIGTERM, then
 * SIGKILL. Then, on Linux, the processes that left the group (a `setsid` daemon, a browser the server
 * launched detached) are found by the mark in their inherited environment (see tree-mark.ts) and
 * ended the same way. The same happens when the server exits by itself, and at the host's exit.
 *
 * Messages are split on newlines without re-copying the buffer per chunk; a message over
 * `maxMessageBytes` ends the connection, and {@link failure} says so ("a message of the server
 * exceeded N bytes") instead of a bare "Connection closed".
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Why the connection failed on our side (a message over the size limit), if it did. */
  failure: Error | undefined;

  private child: ChildProcess | undefined;
  private readonly stderrStream = new PassThrough();
  private chunks: Buffer[] = [];
  private pending = 0;
  private closing: Promise<void> | undefined;
  private readonly maxBytes: number;
  private readonly graceMs: number;
  // This start's mark, inherited by every process of the server's tree (see tree-mark.ts).
  private readonly mark = newTreeMark();

  constructor(private readonly options: ProcessGroupTransportOptions) {
    this.maxBytes = options.maxMessageBytes ?? MCP_STDIO_MAX_MESSAGE_BYTES;
    this.graceMs = options.graceMs ?? 1_000;
  }

  /** The server's stderr (available before `start`, so no early line is lost). */
  get stderr(): PassThrough {
    return this.stderrStream;
  }

  /** The server's pid, which is also its process group id (`null` before start and after exit). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('ProcessGroupStdioTransport already started.');
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, [...(this.options.args ?? [])], {
        env: {
          ...getDefaultEnvironment(),
          ...this.options.env,
          [TREE_MARK_VARIABLE]: treeMarkValue(process.env[TREE_MARK_VARIABLE], this.mark),
        },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        ...(this.options.cwd ? { cwd: this.options.cwd } : {}),
      });
      this.child = child;
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => {
        if (child.pid !== undefined) trackTree(child.pid, this.mark);
        resolve();
      });
      child.on('close', () => {
        if (this.child === child) this.child = undefined;
        // The server is gone; the rest of its group goes with it.
        if (child.pid !== undefined) void this.reapGroup(child.pid);
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stderr?.pipe(this.stderrStream);
    });
  }

  private receive(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      const line = this.chunks.length > 0 ? Buffer.concat([...this.chunks, piece]) : piece;
      this.chunks = [];
      this.pending = 0;
      start = nl + 1;
      if (line.length > this.maxBytes) {
        this.overflow(line.length);
        return;
      }
      this.deliver(line.toString('utf8').replace(/\r$/, ''));
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.pending += rest.length;
      if (this.pending > this.maxBytes) {
        this.overflow(this.pending);
        return;
      }
      this.chunks.push(rest);
    }
  }

  private deliver(line: string): void {
    if (line.trim() === '') return;
    try {
      this.onmessage?.(JSONRPCMessageSchema.parse(JSON.parse(line)));
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  private overflow(bytes: number): void {
    this.chunks = [];
    this.pending = 0;
    this.failure = new Error(
      `a message from the server exceeded ${this.maxBytes} bytes (${bytes > this.maxBytes ? `over ${this.maxBytes}` : bytes} bytes read), the stdio message limit; the connection was closed`,
    );
    this.onerror?.(this.failure);
    void this.close();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Ends the server and every process of its group (see the class notes for the order). */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    const child = this.child;
    const pgid = child?.pid;
    if (!child || pgid === undefined) return;
    const exited = new Promise<void>((r) =>
      child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r()),
    );
    const within = (ms: number) => Promise.race([exited.then(() => true), sleep(ms).then(() => false)]);
    try {
      child.stdin?.end();
    } catch {
      // Already closed.
    }
    if (!(await within(this.graceMs))) {
      signalGroup(pgid, 'SIGTERM');
      if (!(await within(this.graceMs))) signalGroup(pgid, 'SIGKILL');
    }
    await this.reapGroup(pgid);
    this.chunks = [];
  }

  /**
   * Kills what is left of a tree whose leader is gone: the group, then the processes that left it
   * (by their mark); each SIGTERM first, SIGKILL after the grace period.
   */
  private async reapGroup(pgid: number): Promise<void> {
    if (signalGroup(pgid, 'SIGTERM') && !(await groupGone(pgid, this.graceMs))) {
      signalGroup(pgid, 'SIGKILL');
      await groupGone(pgid, 1_000);
    }
    await endMarked(this.mark, this.graceMs);
    liveTrees.delete(pgid);
  }

  /** Kills the whole group at once (a server that must not linger: a failed start, a crash). */
  kill(): void {
    const pgid = this.child?.pid;
    if (pgid !== undefined) signalGroup(pgid, 'SIGKILL');
  }
}
