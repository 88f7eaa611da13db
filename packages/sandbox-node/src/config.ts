// The Node adapter's config. It lives here, not in the spec package: each adapter owns its options,
// and the spec knows only the base (`type`, `root`).
import type { NodeSandboxBaseConfig } from '@aibuddy/sandbox';

/** How `exec` is isolated at the OS level. */
export type IsolationMode = 'auto' | 'off' | 'required';

/**
 * Config of the Node adapter. Owned by this package (each adapter owns its config); it extends the
 * spec's `NodeSandboxBaseConfig` and is registered with `createSandbox` by the declaration below.
 */
export interface NodeSandboxConfig extends NodeSandboxBaseConfig {
  /** OS isolation of `exec` (default `auto`). */
  isolation?: IsolationMode;
  /** Host environment variable names that commands may inherit (default: PATH, HOME, LANG, TERM, ...). */
  inheritEnv?: readonly string[];
  /** Default `exec` timeout (ms). */
  defaultTimeoutMs?: number;
  /** Grace between SIGTERM and SIGKILL (ms). */
  killGraceMs?: number;
  /** Cap on captured output per stream (bytes). */
  maxOutputBytes?: number;
  /** After a command exits, how long its pipes may drain before leftover background processes are ended (ms). */
  exitDrainMs?: number;
  /** Time bound of `glob` and `grep` (ms); past it they return what they found with `truncated`. */
  searchTimeoutMs?: number;
  /** Time bound of one `readFile` (ms); past it the read returns the lines it has, with `stopped` saying so. */
  readTimeoutMs?: number;
  /** The ripgrep binary `grep` uses (default `rg` on PATH); `false` forces the JavaScript engine. */
  ripgrepPath?: string | false;
  /** The bubblewrap binary used for isolation (default `bwrap` on PATH). */
  bubblewrapPath?: string;
  /**
   * Per-command resource bounds (processes, data memory, file size, open files); each field
   * defaults to a sensible bound, `false` lifts one, `resourceLimits: false` lifts all.
   */
  resourceLimits?: ResourceLimits | false;
  /**
   * Extra host paths mounted read-only under bubblewrap (for toolchains outside /usr, /opt and
   * Node's own install folder, e.g. `~/.pyenv`). Nothing else of the host outside the system
   * folders is visible to commands.
   */
  readOnlyPaths?: readonly string[];
  /**
   * After every command, check every `.git` folder of the workspace (top level and nested) and
   * undo what could make the host's next `git` run planted code (default true).
   */
  protectGit?: boolean;
  /**
   * Without bubblewrap (isolation `off`, or `auto` where it is missing), run each command in its
   * own PID namespace when the OS allows, so its whole tree dies with the call and with the host
   * (default true). `false` leaves a plain process group with a best-effort daemon sweep.
   */
  pidNamespace?: boolean;
}

/** Per-command resource bounds of the Node adapter; `false` lifts one bound. */
export interface ResourceLimits {
  /** Processes and threads one command may run at once (default 1,024). */
  processes?: number | false;
  /** Data memory per process in bytes (RLIMIT_DATA; default 2 GiB). */
  memoryBytes?: number | false;
  /** Largest file a command may write, in bytes (default 4 GiB). */
  fileSizeBytes?: number | false;
  /** Open files per process (default 8,192). */
  openFiles?: number | false;
}

declare module '@aibuddy/sandbox' {
  /** With this package installed and imported, `createSandbox({ type: 'node', ... })` checks every Node option. */
  interface SandboxConfigMap {
    /** The Node adapter's config. */
    node: NodeSandboxConfig;
  }
}
