import type {
  EditFileResult,
  ExecResult,
  GlobResult,
  GrepResult,
  ISandbox,
  LsResult,
  ReadFileResult,
  WriteFileResult,
} from '@aibuddy/sandbox';
import { SandboxUnavailableError } from '@aibuddy/sandbox';

/** Config of the Daytona backend (accepted today; this adapter is a placeholder). Owned by this adapter. */
export interface DaytonaSandboxConfig {
  /** Always `daytona`. */
  type: 'daytona';
  /** API key (for example from `DAYTONA_API_KEY`). */
  apiKey?: string;
  /** API URL. */
  apiUrl?: string;
  /** Target region. */
  target?: string;
  /** Snapshot or image to start from. */
  snapshot?: string;
  /** Workspace folder inside the remote sandbox. */
  root?: string;
}

function unavailable<T>(operation: string): Promise<T> {
  // A rejected promise, never a synchronous throw: callers handle one failure path.
  return Promise.reject(
    new SandboxUnavailableError(
      `The "daytona" sandbox backend is unavailable in this deployment (its adapter is a placeholder), so ${operation} cannot run. ` +
        'Use { type: "node", root: "<workspace folder>" }, the backend that works here.',
    ),
  );
}

/**
 * The placeholder Daytona adapter: it accepts a Daytona config so hosts can write one today, and
 * every operation rejects with `SandboxUnavailableError` naming the backend that works.
 */
export class DaytonaSandbox implements ISandbox {
  /** Always `daytona`. */
  readonly type = 'daytona' as const;
  /** The configured remote workspace folder (default `/home/daytona/workspace`). */
  readonly root: string;

  /** Keeps the config; nothing is contacted. */
  constructor(config: DaytonaSandboxConfig = { type: 'daytona' }) {
    this.root = config.root ?? '/home/daytona/workspace';
  }

  /** Rejects with `SandboxUnavailableError`. */
  // The parameters are the interface's, so calls type-check exactly as against any adapter.
  ls(..._args: Parameters<ISandbox['ls']>): Promise<LsResult> {
    return unavailable('ls');
  }
  /** Rejects with `SandboxUnavailableError`. */
  // The parameters are the interface's, so calls type-check exactly as against any adapter.
  readFile(..._args: Parameters<ISandbox['readFile']>): Promise<ReadFileResult> {
    return unavailable('readFile');
  }
  /** Rejects with `SandboxUnavailableError`. */
  // The parameters are the interface's, so calls type-check exactly as against any adapter.
  writeFile(..._args: Parameters<ISandbox['writeFile']>): Promise<WriteFileResult> {
    return unavailable('writeFile');
  }
  /** Rejects with `SandboxUnavailableError`. */
  // The parameters are the interface's, so calls type-check exactly as against any adapter.
  editFile(..._args: Parameters<ISandbox['editFile']>): Promise<EditFileResult> {
    return unavailable('editFile');
  }
  /** Rejects with `SandboxUnavailableError`. */
  // The parameters are the interface's, so calls type-check exactly as against any adapter.
  glob(..._args: Parameters<ISandbox['glob']>): Promise<GlobResult> {
    return unavailable('glob');
  }
  /** Rejects with `SandboxUnavailableError`. */
  // The parameters are the interface's, so calls type-check exactly as against any adapter.
  grep(..._args: Parameters<ISandbox['grep']>): Promise<GrepResult> {
    return unavailable('grep');
  }
  /** Rejects with `SandboxUnavailableError`. */
  // The parameters are the interface's, so calls type-check exactly as against any adapter.
  exec(..._args: Parameters<ISandbox['exec']>): Promise<ExecResult> {
    return unavailable('exec');
  }
  /** Nothing to release. */
  async close(): Promise<void> {}
}

/** Creates the placeholder Daytona adapter (it resolves; its operations reject). */
export async function createDaytonaSandbox(config: DaytonaSandboxConfig = { type: 'daytona' }): Promise<DaytonaSandbox> {
  return new DaytonaSandbox(config);
}
