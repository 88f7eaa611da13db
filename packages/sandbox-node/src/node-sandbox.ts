import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type {
  EditFileOptions,
  EditFileResult,
  EditSpec,
  ExecOptions,
  ExecResult,
  GlobOptions,
  GlobResult,
  GrepOptions,
  GrepResult,
  ISandbox,
  LsOptions,
  LsResult,
  NodeSandboxConfig,
  ReadFileOptions,
  ReadFileResult,
  WriteFileOptions,
  WriteFileResult,
} from '@aibuddy/sandbox';
import { SandboxArgumentError, SandboxNotAFileError, SandboxNotFoundError } from '@aibuddy/sandbox';
import { throwIfAborted } from './abort.js';
import { atomicWrite, existingRegular } from './atomic-write.js';
import { applyEdit, editNotFound } from './edit-file.js';
import { chooseIsolation, describeExec, runCommand, validateCommand, type ExecSettings, type RunningCommand } from './exec.js';
import type { IsolationDescription } from './isolation.js';
import { effectiveLimits, type EffectiveLimits } from './resource-limits.js';
import { toSandboxError } from './fs-errors.js';
import { globFiles } from './glob.js';
import { grepFiles } from './grep.js';
import { listDir } from './ls.js';
import { openRegularFile } from './open-regular.js';
import { resolvePath, type Root } from './paths.js';
import { readFileWindow } from './read-file.js';

/** Host variables a command inherits by default: enough to find programs and speak UTF-8, no secrets. */
export const DEFAULT_INHERIT_ENV: readonly string[] = [
  'PATH',
  'HOME',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TERM',
  'TZ',
  'USER',
  'LOGNAME',
  'SHELL',
  'TMPDIR',
];
/** Default `exec` timeout: 2 minutes. */
export const DEFAULT_EXEC_TIMEOUT_MS = 120_000;
/** Default grace between SIGTERM and SIGKILL. */
export const DEFAULT_KILL_GRACE_MS = 2_000;
/** Default cap on captured output, per stream: 1 MiB (head and tail halves). */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** Default drain window after a command exits before leftovers are ended. */
export const DEFAULT_EXIT_DRAIN_MS = 100;
/** Default time bound of `glob` and `grep`. */
export const DEFAULT_SEARCH_TIMEOUT_MS = 20_000;
/** Entries a JavaScript walk visits at most. */
const MAX_WALK_ENTRIES = 500_000;

const MAX_WRITE_BYTES = 64 * 1024 * 1024;

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!(typeof value === 'number' && value >= 0 && Number.isFinite(value))) {
    throw new SandboxArgumentError(`createNodeSandbox: ${name} must be a non-negative number (got ${String(value)}).`);
  }
  return value;
}

function execLimits(config: NodeSandboxConfig['resourceLimits']): EffectiveLimits {
  try {
    return effectiveLimits(config);
  } catch (error) {
    throw new SandboxArgumentError(`createNodeSandbox: ${(error as Error).message}`);
  }
}

/**
 * The Node sandbox: a workspace folder on the local disk plus child processes. Every path is
 * confined to the root (symlinks resolved before any I/O), reads stream a window of lines,
 * writes are atomic, and commands run in their own process group, optionally under bubblewrap.
 */
export class NodeSandbox implements ISandbox {
  /** Always `node`. */
  readonly type = 'node' as const;
  /** The real path of the workspace root. */
  readonly root: string;
  private readonly rootInfo: Root;
  private readonly exec_: ExecSettings;
  private readonly searchTimeoutMs: number;
  private readonly ripgrep: string | false;
  private readonly running = new Set<RunningCommand>();

  /**
   * Use `createNodeSandbox`, which checks the root first.
   * @internal
   */
  constructor(rootInfo: Root, config: NodeSandboxConfig) {
    this.rootInfo = rootInfo;
    this.root = rootInfo.real;
    const isolation = config.isolation ?? 'auto';
    if (isolation !== 'auto' && isolation !== 'off' && isolation !== 'required') {
      throw new SandboxArgumentError(`createNodeSandbox: isolation must be "auto", "off" or "required" (got ${JSON.stringify(isolation)}).`);
    }
    this.exec_ = {
      isolation,
      bubblewrap: config.bubblewrapPath ?? 'bwrap',
      shell: 'bash',
      inheritEnv: config.inheritEnv ?? DEFAULT_INHERIT_ENV,
      defaultTimeoutMs: positive(config.defaultTimeoutMs, DEFAULT_EXEC_TIMEOUT_MS, 'defaultTimeoutMs'),
      killGraceMs: positive(config.killGraceMs, DEFAULT_KILL_GRACE_MS, 'killGraceMs'),
      maxOutputBytes: Math.max(64, positive(config.maxOutputBytes, DEFAULT_MAX_OUTPUT_BYTES, 'maxOutputBytes')),
      drainMs: positive(config.exitDrainMs, DEFAULT_EXIT_DRAIN_MS, 'exitDrainMs'),
      limits: execLimits(config.resourceLimits),
      readOnlyPaths: config.readOnlyPaths ?? [],
      protectGit: config.protectGit ?? true,
      pidNamespace: config.pidNamespace ?? true,
    };
    this.searchTimeoutMs = positive(config.searchTimeoutMs, DEFAULT_SEARCH_TIMEOUT_MS, 'searchTimeoutMs');
    this.ripgrep = config.ripgrepPath ?? 'rg';
  }

  /** Lists a folder. */
  async ls(path: string, options?: LsOptions): Promise<LsResult> {
    throwIfAborted(options?.signal, 'ls');
    try {
      return await listDir(await resolvePath(this.rootInfo, path), options);
    } catch (error) {
      throw toSandboxError(error, path, 'ls');
    }
  }

  /** Reads a window of lines (default the first 2,000), streaming. */
  async readFile(path: string, options?: ReadFileOptions): Promise<ReadFileResult> {
    throwIfAborted(options?.signal, 'readFile');
    try {
      const target = await resolvePath(this.rootInfo, path);
      return await readFileWindow(target, options);
    } catch (error) {
      throw toSandboxError(error, path, 'readFile');
    }
  }

  /** Writes a file atomically, creating parent folders. */
  async writeFile(path: string, content: string, options?: WriteFileOptions): Promise<WriteFileResult> {
    throwIfAborted(options?.signal, 'writeFile');
    if (typeof content !== 'string') throw new SandboxArgumentError('writeFile: content must be a string.', { path });
    try {
      const target = await resolvePath(this.rootInfo, path);
      const data = Buffer.from(content, 'utf8');
      if (data.length > MAX_WRITE_BYTES) {
        throw new SandboxArgumentError(`writeFile: content is ${data.length} bytes, over the ${MAX_WRITE_BYTES}-byte limit.`, { path });
      }
      const previous = await existingRegular(target, 'writeFile');
      return await atomicWrite(this.rootInfo, target, data, previous, options?.signal, 'writeFile');
    } catch (error) {
      throw toSandboxError(error, path, 'writeFile');
    }
  }

  /** Replaces text exactly once (or everywhere with `replaceAll`), atomically. */
  async editFile(path: string, edit: EditSpec, options?: EditFileOptions): Promise<EditFileResult> {
    throwIfAborted(options?.signal, 'editFile');
    try {
      const target = await resolvePath(this.rootInfo, path);
      if (!target.exists) editNotFound(target.rel);
      const { handle, stat: before } = await openRegularFile(target.real, target.rel, 'editFile');
      let bytes: Buffer;
      try {
        bytes = await handle.readFile();
      } finally {
        await handle.close();
      }
      const { data, result } = applyEdit(target.rel, bytes, edit);
      const written = await atomicWrite(this.rootInfo, target, data, before, options?.signal, 'editFile');
      return { ...result, mtimeMs: written.mtimeMs };
    } catch (error) {
      throw toSandboxError(error, path, 'editFile');
    }
  }

  /** Finds regular files by glob; symlinks are never followed. */
  async glob(pattern: string, options?: GlobOptions): Promise<GlobResult> {
    throwIfAborted(options?.signal, 'glob');
    try {
      return await globFiles(this.rootInfo, pattern, options, { timeMs: this.searchTimeoutMs, maxEntries: MAX_WALK_ENTRIES });
    } catch (error) {
      throw toSandboxError(error, options?.path ?? '.', 'glob');
    }
  }

  /** Searches contents with ripgrep (or the JavaScript engine), capped and time-bounded. */
  async grep(pattern: string, options?: GrepOptions): Promise<GrepResult> {
    throwIfAborted(options?.signal, 'grep');
    try {
      return await grepFiles(this.rootInfo, pattern, options, {
        timeMs: this.searchTimeoutMs,
        maxEntries: MAX_WALK_ENTRIES,
        ripgrep: this.ripgrep,
      });
    } catch (error) {
      throw toSandboxError(error, options?.path ?? '.', 'grep');
    }
  }

  /** Runs `bash -c command` in the workspace; a non-zero exit is a result. */
  async exec(command: string, options?: ExecOptions): Promise<ExecResult> {
    throwIfAborted(options?.signal, 'exec');
    validateCommand(command, options?.timeoutMs ?? this.exec_.defaultTimeoutMs);
    const cwd = await resolvePath(this.rootInfo, options?.cwd ?? '.').catch((error: unknown) => {
      throw toSandboxError(error, options?.cwd ?? '.', 'exec');
    });
    if (!cwd.exists) throw new SandboxNotFoundError(`exec: the working folder "${cwd.rel}" does not exist.`, { path: cwd.rel });
    if (!(await stat(cwd.real)).isDirectory()) {
      throw new SandboxNotAFileError(`exec: the working folder "${cwd.rel}" is not a folder.`, { path: cwd.rel });
    }
    throwIfAborted(options?.signal, 'exec');
    return runCommand(command, cwd.real, this.rootInfo.real, options, this.exec_, this.running);
  }

  /** What commands run in here (bubblewrap, PID namespace or none), whether their tree dies with the call, and the bounds. */
  describe(): IsolationDescription {
    return describeExec(this.exec_);
  }

  /** Ends every running command (SIGTERM, then SIGKILL after the grace). */
  async close(): Promise<void> {
    await Promise.all([...this.running].map((r) => r.terminate()));
  }
}

/**
 * Creates the Node sandbox for an existing workspace folder. Rejects with `SandboxNotFoundError`
 * when the root does not exist or is not a folder.
 */
export async function createNodeSandbox(config: NodeSandboxConfig): Promise<NodeSandbox> {
  if (typeof config?.root !== 'string' || config.root === '' || config.root.includes('\0')) {
    throw new SandboxArgumentError('createNodeSandbox: root must be the path of the workspace folder.');
  }
  const given = resolve(config.root);
  let real: string;
  try {
    real = await realpath(given);
  } catch (error) {
    throw new SandboxNotFoundError(`createNodeSandbox: the workspace root "${config.root}" does not exist.`, {
      path: config.root,
      cause: error,
    });
  }
  if (!(await stat(real)).isDirectory()) {
    throw new SandboxNotAFileError(`createNodeSandbox: the workspace root "${config.root}" is not a folder.`, { path: config.root });
  }
  const sandbox = new NodeSandbox({ given, real }, config);
  // isolation "required" without a usable bubblewrap fails here, not at the first command.
  if (config.isolation === 'required') chooseIsolation({ isolation: 'required', bubblewrap: config.bubblewrapPath ?? 'bwrap' });
  return sandbox;
}
