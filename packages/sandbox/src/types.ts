/** The sandbox backends a config can name. Having a type does not mean a deployment supports it. */
export type SandboxType = 'node' | 'daytona' | 'e2b';

/** Options every sandbox operation takes last. */
export interface OperationOptions {
  /** Aborts the operation. A signal that is already aborted rejects with no side effect. */
  signal?: AbortSignal;
}

/** The type of a directory entry. */
export type EntryType = 'file' | 'dir' | 'symlink' | 'other';

/** One entry of `ls`. */
export interface DirEntry {
  /** The entry's name (not a path). */
  name: string;
  /** The entry's type; symlinks are reported as symlinks, never followed. */
  type: EntryType;
  /** Size in bytes (0 for directories). */
  size: number;
}

/** Options of `ls`. */
export interface LsOptions extends OperationOptions {
  /** At most this many entries (default 1,000). */
  limit?: number;
}

/** Result of `ls`. */
export interface LsResult {
  /** Workspace-relative path that was listed (`.` for the root). */
  path: string;
  /** Entries, sorted by name. */
  entries: DirEntry[];
  /** True when entries were cut at the limit. */
  truncated: boolean;
}

/** Options of `readFile`. */
export interface ReadFileOptions extends OperationOptions {
  /** First line to return, 1-based (default 1). */
  offset?: number;
  /** How many lines at most (default 2,000). */
  limit?: number;
  /**
   * Refuse with `SandboxTooLargeError`, before reading any byte, when the file is larger than this
   * (for callers that need the whole file in memory, such as an edit).
   */
  maxBytes?: number;
}

/**
 * The encoding of a file's text. `utf-8` is certain (plain ASCII is valid UTF-8); the others are
 * guesses from the bytes, marked with `?`; `unknown` is neither.
 */
export type TextEncodingGuess = 'utf-8' | 'gbk?' | 'latin-1?' | 'unknown';

/** Result of `readFile`: a window of lines. */
export interface ReadFileResult {
  /** Workspace-relative path. */
  path: string;
  /** The lines of the window joined by `\n` (line endings normalized; `lineEnding` tells the original). */
  content: string;
  /** 1-based number of the first line returned. */
  startLine: number;
  /** 1-based number of the last line returned (startLine - 1 when none). */
  endLine: number;
  /** Total number of lines, when the whole file was scanned; otherwise undefined. */
  totalLines: number | undefined;
  /** True when lines after the window exist (the file was cut). */
  truncated: boolean;
  /** The offset to continue from, when truncated. */
  nextOffset: number | undefined;
  /** Numbers of lines longer than the per-line limit that were cut with a marker. */
  longLinesCut: number[];
  /** Size of the file in bytes. */
  size: number;
  /** Modification time (ms since epoch), for stale-read guards. */
  mtimeMs: number;
  /** `\r\n` when the file uses CRLF line endings, else `\n`. */
  lineEnding: '\n' | '\r\n';
  /**
   * The encoding of the lines returned. When it is not `utf-8`, `content` was decoded with the
   * guess (or as UTF-8 with U+FFFD for invalid bytes when `unknown`), so it is not the file's bytes.
   * Absent from adapters that do not detect it.
   */
  encoding?: TextEncodingGuess;
  /**
   * Set when the read ended before the window was complete for a reason other than the end of the
   * file: the time bound passed, a long run of NUL bytes (a sparse hole or binary data) was met,
   * or the file grew past the size it had when it was opened. A sentence for people and models.
   */
  stopped?: string;
}

/** Options of `writeFile`. */
export interface WriteFileOptions extends OperationOptions {}

/** Result of `writeFile`. */
export interface WriteFileResult {
  /** Workspace-relative path. */
  path: string;
  /** Bytes written. */
  size: number;
  /** True when the file did not exist before (this write created it). */
  created: boolean;
  /** Modification time after writing. */
  mtimeMs: number;
}

/** The edit `editFile` applies. */
export interface EditSpec {
  /** The exact text to replace. */
  oldText: string;
  /** The replacement (inserted literally: `$&` and similar are not special). */
  newText: string;
  /** Replace every occurrence; otherwise exactly one must exist. */
  replaceAll?: boolean;
}

/** Options of `editFile`. */
export interface EditFileOptions extends OperationOptions {}

/** Result of `editFile`. */
export interface EditFileResult {
  /** Workspace-relative path. */
  path: string;
  /** How many occurrences were replaced. */
  replacements: number;
  /** 1-based line numbers where the replacements start (in the new file). */
  lines: number[];
  /** Size after editing. */
  size: number;
  /** Modification time after editing. */
  mtimeMs: number;
}

/** Options of `glob`. */
export interface GlobOptions extends OperationOptions {
  /** Directory to search in, workspace-relative (default the root). */
  path?: string;
  /** At most this many matches (default 1,000). */
  limit?: number;
}

/** Result of `glob`. */
export interface GlobResult {
  /** Workspace-relative paths of matching files, sorted. */
  files: string[];
  /** True when matches were cut at the limit. */
  truncated: boolean;
}

/** Options of `grep`. */
export interface GrepOptions extends OperationOptions {
  /** Directory or file to search, workspace-relative (default the root). */
  path?: string;
  /** Only files matching this glob. */
  glob?: string;
  /** At most this many matches (default 1,000). */
  limit?: number;
  /** Case-insensitive matching. */
  ignoreCase?: boolean;
  /** Lines of context before and after each match (default 0). */
  context?: number;
}

/** One match of `grep`. */
export interface GrepMatch {
  /** Workspace-relative path. */
  path: string;
  /** 1-based line number. */
  line: number;
  /** The line's text (cut to 2,000 characters). */
  text: string;
  /** Context lines before the match. */
  before?: { line: number; text: string }[];
  /** Context lines after the match. */
  after?: { line: number; text: string }[];
}

/** Result of `grep`. */
export interface GrepResult {
  /** Matches in path then line order. */
  matches: GrepMatch[];
  /** True when matches were cut at the limit or the time bound. */
  truncated: boolean;
  /** Which engine ran. */
  engine: 'ripgrep' | 'javascript';
  /**
   * Set when the search stopped at its time bound (or another bound than the match limit): a
   * sentence saying so. The matches found until then are returned, with `truncated`.
   */
  stopped?: string;
}

/** Options of `exec`. */
export interface ExecOptions extends OperationOptions {
  /** Working directory, workspace-relative (default the root). */
  cwd?: string;
  /** The environment. Nothing of the host's environment is inherited unless the adapter is configured to. */
  env?: Record<string, string>;
  /** Kill the command's process group after this long (default adapter-specific). */
  timeoutMs?: number;
  /** Live stdout, decoded as UTF-8 without broken characters. */
  onStdout?: (chunk: string) => void;
  /** Live stderr, decoded likewise. */
  onStderr?: (chunk: string) => void;
}

/** Result of `exec`. A non-zero exit is a result, not an exception. */
export interface ExecResult {
  /** Exit code; `null` when killed by a signal. */
  exitCode: number | null;
  /** The signal that ended it, if any. */
  signal?: string | null;
  /** Captured stdout (head and tail kept when over the cap). */
  stdout: string;
  /** Captured stderr (likewise). */
  stderr: string;
  /** True when captured output was cut at the byte cap. */
  truncated: boolean;
  /** True when the timeout killed it. */
  timedOut: boolean;
  /** True when the abort signal killed it. */
  aborted?: boolean;
  /** Wall time. */
  durationMs: number;
  /**
   * How the command ran: under bubblewrap, in its own PID namespace only (the tree dies with the
   * call, but the command sees the host as the host user does), or unconfined.
   */
  isolation?: 'bubblewrap' | 'pid-namespace' | 'none';
  /**
   * What the sandbox undid or set aside after the command, one sentence each (e.g. a git hook
   * the command planted, moved to quarantine). Absent when there was nothing.
   */
  notices?: string[];
}

/**
 * A workspace a tool can act in. Paths are relative to the root (an absolute path inside the root
 * is accepted); anything that resolves outside rejects with `SandboxPathError` before any byte is
 * read or written outside. Every method takes `{ signal }` last.
 */
export interface ISandbox {
  /** The backend. */
  readonly type: SandboxType;
  /** The workspace root as the backend sees it. */
  readonly root: string;
  /** Lists a directory. */
  ls(path: string, options?: LsOptions): Promise<LsResult>;
  /** Reads a window of lines of a text file, streaming. */
  readFile(path: string, options?: ReadFileOptions): Promise<ReadFileResult>;
  /** Writes a file atomically (temp file + rename), creating parent folders. */
  writeFile(path: string, content: string, options?: WriteFileOptions): Promise<WriteFileResult>;
  /** Replaces text in a file atomically. */
  editFile(path: string, edit: EditSpec, options?: EditFileOptions): Promise<EditFileResult>;
  /** Finds files by glob pattern. */
  glob(pattern: string, options?: GlobOptions): Promise<GlobResult>;
  /** Searches file contents by regular expression. */
  grep(pattern: string, options?: GrepOptions): Promise<GrepResult>;
  /**
   * Runs a shell command in the workspace. A command or environment value with a lone surrogate (text
   * UTF-8 cannot encode) rejects with `SandboxArgumentError` before anything runs.
   */
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** Releases resources (kills running commands). */
  close?(): Promise<void>;
}

/**
 * What the spec knows of a Node sandbox config: where the workspace is. The full config, with
 * isolation, limits and timeouts (`NodeSandboxConfig`), belongs to `@aibuddy/sandbox-node`, which
 * adds it to {@link SandboxConfigMap} so that `createSandbox` checks every option once that
 * package is imported.
 */
export interface NodeSandboxBaseConfig {
  /** Always `node`. */
  type: 'node';
  /** The workspace root on the local disk. */
  root: string;
}

/**
 * Adapter configs by backend. Each adapter package adds its own by declaration merging
 * (`declare module '@aibuddy/sandbox' { interface SandboxConfigMap { node: NodeSandboxConfig } }`),
 * so the spec never depends on an adapter and `createSandbox` is typed by the adapters installed.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by adapter packages through declaration merging
export interface SandboxConfigMap {}

/**
 * The config of a backend whose adapter lives in its own package (for example `DaytonaSandboxConfig`
 * in `@aibuddy/sandbox-daytona`): the spec only knows the `type`; each adapter owns its options.
 */
export interface RemoteSandboxConfig {
  /** The backend. */
  type: 'daytona' | 'e2b';
  /** Adapter-specific options (see the adapter package's config type). */
  [option: string]: unknown;
}

/** Any sandbox config: the spec's own forms plus every config an installed adapter declares. */
export type SandboxConfig = NodeSandboxBaseConfig | RemoteSandboxConfig | SandboxConfigMap[keyof SandboxConfigMap];
