import { realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
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
  ReadFileOptions,
  ReadFileResult,
  WriteFileOptions,
  WriteFileResult,
} from '@aibuddy/sandbox';
import type { NodeSandboxConfig } from './config.js';
import { SandboxArgumentError, SandboxNotAFileError, SandboxNotFoundError, SandboxPathError } from '@aibuddy/sandbox';
import { closeDir, fdPath } from './fd-path.js';
import { throwIfAborted } from './abort.js';
import { atomicWrite, existingRegular } from './atomic-write.js';
import { applyEdit, editNotFound, readForEdit } from './edit-file.js';
import { chooseIsolation, describeExec, runCommand, validateCommand, type ExecSettings, type RunningCommand } from './exec.js';
import type { IsolationDescription } from './isolation.js';
import { effectiveLimits, type EffectiveLimits } from './resource-limits.js';
import { toSandboxError } from './fs-errors.js';
import { checkEncodable, checkFilePath } from './file-input.js';
import { globFiles } from './glob.js';
import { grepFiles } from './grep.js';
import { listDir, lsLimit } from './ls.js';
import { openRegularFile } from './open-regular.js';
import { lexicalParts, type Root } from './paths.js';
import { DEFAULT_READ_TIMEOUT_MS, readFileWindow, readWindowOptions } from './read-file.js';
import { locate, openDirectory, releaseLocated } from './resolve-at.js';
import { RootHandle } from './root-handle.js';
import { withHeldCwd } from './held-cwd.js';
import { refusedRoot } from './refused-roots.js';

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
  private readonly rootInfo: { readonly given: string; readonly real: string };
  private readonly rootHandle: RootHandle;
  private readonly exec_: ExecSettings;
  private readonly searchTimeoutMs: number;
  private readonly readTimeoutMs: number;
  private readonly ripgrep: string | false;
  private readonly running = new Set<RunningCommand>();

  /**
   * Use `createNodeSandbox`, which checks the root first.
   * @internal
   */
  constructor(rootInfo: { given: string; real: string }, config: NodeSandboxConfig) {
    this.rootInfo = rootInfo;
    this.root = rootInfo.real;
    this.rootHandle = new RootHandle(rootInfo.given, rootInfo.real);
    const isolation = config.isolation ?? 'auto';
    if (isolation !== 'auto' && isolation !== 'off' && isolation !== 'required') {
      throw new SandboxArgumentError(
        `createNodeSandbox: isolation must be "auto", "off" or "required" (got ${JSON.stringify(isolation)}).`,
      );
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
    this.readTimeoutMs = positive(config.readTimeoutMs, DEFAULT_READ_TIMEOUT_MS, 'readTimeoutMs');
    this.ripgrep = config.ripgrepPath ?? 'rg';
  }

  /** Runs one operation with the root descriptor held, mapping fs errors to sandbox errors. */
  private async withRoot<T>(operation: string, path: string, run: (root: Root) => Promise<T>): Promise<T> {
    let root: Root;
    try {
      root = this.rootHandle.acquire();
    } catch (error) {
      throw toSandboxError(error, path, operation);
    }
    try {
      return await run(root);
    } catch (error) {
      throw toSandboxError(error, path, operation);
    } finally {
      this.rootHandle.release();
    }
  }

  /** Lists a folder. */
  async ls(path: string, options?: LsOptions): Promise<LsResult> {
    throwIfAborted(options?.signal, 'ls');
    lsLimit(options);
    return this.withRoot('ls', path, async (root) => {
      const dir = await openDirectory(root, path, 'ls');
      try {
        return await listDir(dir, options);
      } finally {
        closeDir(dir.fd);
      }
    });
  }

  /** Reads a window of lines (default the first 2,000), streaming. */
  async readFile(path: string, options?: ReadFileOptions): Promise<ReadFileResult> {
    throwIfAborted(options?.signal, 'readFile');
    checkFilePath('readFile', path);
    return this.withRoot('readFile', path, async (root) => {
      readWindowOptions(options);
      const target = await locate(root, path, { create: false, operation: 'readFile' });
      if (target === undefined) throw new SandboxNotFoundError(`readFile: "${path}" does not exist in the workspace.`, { path });
      try {
        const { handle, stat } = await openRegularFile(target, 'readFile');
        try {
          return await readFileWindow(handle, stat, target.rel, options, { timeMs: this.readTimeoutMs });
        } finally {
          await handle.close();
        }
      } finally {
        await releaseLocated(target);
      }
    });
  }

  /** Writes a file atomically, creating parent folders. */
  async writeFile(path: string, content: string, options?: WriteFileOptions): Promise<WriteFileResult> {
    throwIfAborted(options?.signal, 'writeFile');
    if (typeof content !== 'string') throw new SandboxArgumentError('writeFile: content must be a string.', { path });
    checkFilePath('writeFile', path);
    checkEncodable('writeFile', 'the content', content, path);
    const data = Buffer.from(content, 'utf8');
    if (data.length > MAX_WRITE_BYTES) {
      throw new SandboxArgumentError(`writeFile: content is ${data.length} bytes, over the ${MAX_WRITE_BYTES}-byte limit.`, {
        path,
      });
    }
    return this.withRoot('writeFile', path, async (root) => {
      const target = await locate(root, path, { create: true, operation: 'writeFile' });
      if (target === undefined)
        throw new SandboxNotFoundError(`writeFile: a folder on the way to "${path}" disappeared while it was being created.`, {
          path,
        });
      try {
        const previous = existingRegular(target, 'writeFile');
        return await atomicWrite(target, data, previous, options?.signal, 'writeFile');
      } finally {
        await releaseLocated(target);
      }
    });
  }

  /** Replaces text exactly once (or everywhere with `replaceAll`), atomically. */
  async editFile(path: string, edit: EditSpec, options?: EditFileOptions): Promise<EditFileResult> {
    throwIfAborted(options?.signal, 'editFile');
    checkFilePath('editFile', path);
    if (typeof edit?.oldText === 'string') checkEncodable('editFile', 'oldText', edit.oldText, path);
    if (typeof edit?.newText === 'string') checkEncodable('editFile', 'newText', edit.newText, path);
    return this.withRoot('editFile', path, async (root) => {
      const target = await locate(root, path, { create: false, operation: 'editFile' });
      if (target?.stat === undefined) editNotFound(target?.rel ?? lexicalParts(root, path).rel);
      try {
        // Read and replace through the same held parent folder: the edit lands where it was read.
        const { handle, stat: before } = await openRegularFile(target, 'editFile');
        let bytes: Buffer;
        try {
          bytes = await readForEdit(handle, before.size, target.rel);
        } finally {
          await handle.close();
        }
        const { data, result } = applyEdit(target.rel, bytes, edit);
        const written = await atomicWrite(target, data, before, options?.signal, 'editFile');
        return { ...result, mtimeMs: written.mtimeMs };
      } finally {
        await releaseLocated(target);
      }
    });
  }

  /** Finds regular files by glob; symlinks are never followed. */
  async glob(pattern: string, options?: GlobOptions): Promise<GlobResult> {
    throwIfAborted(options?.signal, 'glob');
    return this.withRoot('glob', options?.path ?? '.', (root) =>
      globFiles(root, pattern, options, { timeMs: this.searchTimeoutMs, maxEntries: MAX_WALK_ENTRIES }),
    );
  }

  /** Searches contents with ripgrep (or the JavaScript engine), capped and time-bounded. */
  async grep(pattern: string, options?: GrepOptions): Promise<GrepResult> {
    throwIfAborted(options?.signal, 'grep');
    return this.withRoot('grep', options?.path ?? '.', (root) =>
      grepFiles(root, pattern, options, {
        timeMs: this.searchTimeoutMs,
        maxEntries: MAX_WALK_ENTRIES,
        ripgrep: this.ripgrep,
        bubblewrap: this.exec_.bubblewrap,
      }),
    );
  }

  /** Runs `bash -c command` in the workspace; a non-zero exit is a result. */
  async exec(command: string, options?: ExecOptions): Promise<ExecResult> {
    throwIfAborted(options?.signal, 'exec');
    validateCommand(command, options?.timeoutMs ?? this.exec_.defaultTimeoutMs);
    const cwdPath = options?.cwd ?? '.';
    // The working folder is opened handle-relative and held while the command starts. Unconfined,
    // the child's chdir goes through its inherited copy of that descriptor (/proc/self/fd/<fd> in
    // the child), so no swap of a folder on the way can move it. Under bubblewrap, --chdir takes a
    // path inside the new mount namespace, where only the workspace is writable and its parent is
    // an empty tmpfs: a link swapped in there leads to nothing the command could not see anyway.
    const cwd = await this.withRoot('exec', cwdPath, (root) => openDirectory(root, cwdPath, 'exec'));
    try {
      throwIfAborted(options?.signal, 'exec');
      const cwdReal = cwd.physical === '.' ? this.root : join(this.root, cwd.physical);
      // Held until the command ends (one descriptor per running command), so however late the
      // spawn happens, /proc/self/fd/<fd> still names this folder.
      return await runCommand(
        command,
        cwdReal,
        this.rootInfo.real,
        withHeldCwd(options, fdPath(cwd.fd)),
        this.exec_,
        this.running,
      );
    } finally {
      closeDir(cwd.fd);
    }
  }

  /** What commands run in here (bubblewrap, PID namespace or none), whether their tree dies with the call, and the bounds. */
  describe(): IsolationDescription {
    return describeExec(this.exec_);
  }

  /** Ends every running command (SIGTERM, then SIGKILL after the grace) and gives back the root descriptor. */
  async close(): Promise<void> {
    await Promise.all([...this.running].map((r) => r.terminate()));
    this.rootHandle.close();
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
    throw new SandboxNotAFileError(`createNodeSandbox: the workspace root "${config.root}" is not a folder.`, {
      path: config.root,
    });
  }
  const refused = refusedRoot(given, real);
  if (refused !== undefined) {
    throw new SandboxPathError(
      `createNodeSandbox: the workspace root "${config.root}" is refused: ${refused}. Every file of the workspace is open to the model ` +
        'and its commands; use a project folder (for example a new folder under your home folder or /tmp) as the workspace.',
      { path: config.root },
    );
  }
  const sandbox = new NodeSandbox({ given, real }, config);
  // isolation "required" without a usable bubblewrap fails here, not at the first command.
  if (config.isolation === 'required') chooseIsolation({ isolation: 'required', bubblewrap: config.bubblewrapPath ?? 'bwrap' });
  return sandbox;
}
