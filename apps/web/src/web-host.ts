import { createModel, DEMO_ALLOW_RULES, demoMcpConfig, demoScript, loadHostCommandRules, runTask } from '@aibuddy/agent';
import type { HostCommandRules, ModelInfo, RunTaskResult } from '@aibuddy/agent';
import { createUIMessageStream } from 'ai';
import { PendingConfirmations } from './pending-confirmations.js';
import { UiStreamBridge } from './ui-stream.js';

/** What the web host runs tasks with: the CLI's composition options. */
export interface WebHostOptions {
  /** The workspace root every task works in. */
  workspace: string;
  /** A `--model` spec of the CLI (`demo`, `replay:FILE`, `anthropic:MODEL`, …). */
  modelSpec: string;
  /** `--base-url` for real providers. */
  baseUrl?: string;
  /** An `mcpServers` config file (the demo brings its own toolbox server). */
  mcpConfig?: string;
  /** The data folder (default: the composition's own, outside the workspace). */
  dataDir?: string;
  /** Heartbeat period of long calls (default the runtime's 30 s). */
  heartbeatIntervalMs?: number;
  /** Keys and base URLs for real providers (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** `--allow` prefixes, added to the CLI's defaults and its config file (the same rules as `aibuddy run`). */
  allow?: readonly string[];
  /** Problems that do not stop a run. */
  onWarning?: (message: string) => void;
}

/** Why a task could not start. */
export class TaskBusyError extends Error {
  constructor(taskId: string) {
    super(`task ${taskId} is already running; stop it or wait for it to end.`);
    this.name = 'TaskBusyError';
  }
}

/**
 * The web host: the CLI's composition (`runTask`) driven from HTTP. One run per task id at a
 * time; a stop aborts the run's signal, which reaches the sandbox (the process tree) and background
 * compaction; confirmations wait in {@link PendingConfirmations} for the browser.
 */
export class WebHost {
  /** Confirmations waiting for the browser. */
  readonly pending = new PendingConfirmations();
  private readonly running = new Map<string, AbortController>();
  private readonly dataDirs = new Map<string, string>();

  /** The command rules of `execute`, decided once, exactly as the CLI decides them. */
  readonly rules: HostCommandRules;

  constructor(readonly options: WebHostOptions) {
    // Fail at start, not at the first request, when the model spec or a rule is wrong.
    const model = this.model();
    this.rules = loadHostCommandRules({
      allowFlags: options.allow,
      env: options.env ?? process.env,
      workspace: options.workspace,
      ...(model.demo ? { demoRules: DEMO_ALLOW_RULES } : {}),
    });
  }

  /** A fresh model for one run (a scripted model is consumed step by step). */
  model(): ModelInfo {
    return createModel(this.options.modelSpec, {
      ...(this.options.baseUrl ? { baseUrl: this.options.baseUrl } : {}),
      env: this.options.env ?? process.env,
      demoScript: demoScript(),
    });
  }

  /** Task ids with a run in progress. */
  runningTasks(): string[] {
    return [...this.running.keys()];
  }

  /** The data folder a task's run used (for the raw view), once it was composed. */
  dataDirOf(taskId: string): string | undefined {
    return this.dataDirs.get(taskId) ?? this.options.dataDir;
  }

  /** Stops a running task; false when none runs. */
  stop(taskId: string): boolean {
    const controller = this.running.get(taskId);
    if (!controller) return false;
    controller.abort(new Error('stopped from the browser'));
    return true;
  }

  /** Stops every run (server shutdown). */
  stopAll(): void {
    for (const id of this.running.keys()) this.stop(id);
  }

  /**
   * Starts `task` as task `taskId` and returns its UI message stream. Throws {@link TaskBusyError}
   * when that task already runs.
   */
  start(taskId: string, task: string): ReadableStream {
    if (this.running.has(taskId)) throw new TaskBusyError(taskId);
    const controller = new AbortController();
    this.running.set(taskId, controller);
    const model = this.model();
    const mcpConfig = this.options.mcpConfig ?? (model.demo ? demoMcpConfig() : undefined);
    return createUIMessageStream({
      execute: async ({ writer }) => {
        const bridge = new UiStreamBridge(writer, taskId);
        let result: RunTaskResult | undefined;
        try {
          result = await runTask({
            task,
            taskId,
            workspace: this.options.workspace,
            model,
            ...(mcpConfig ? { mcpConfig } : {}),
            ...(this.options.dataDir ? { dataDir: this.options.dataDir } : {}),
            ...(this.options.heartbeatIntervalMs !== undefined ? { heartbeatIntervalMs: this.options.heartbeatIntervalMs } : {}),
            allow: this.rules.allow,
            confirmation: {
              policy: 'ask',
              answeredBy: 'you, in the browser',
              ask: (request, signal) => this.pending.wait(taskId, request, signal),
            },
            renderer: bridge.renderer(),
            // The live sink has every event but compaction, which only the log sink carries.
            onEvent: (event) => {
              if (event.type === 'compaction') bridge.event(event);
            },
            signal: controller.signal,
            onComposed: (agent) => this.dataDirs.set(taskId, agent.dataDir),
            ...(this.options.onWarning ? { onWarning: this.options.onWarning } : {}),
          });
        } finally {
          this.running.delete(taskId);
        }
        if (result.status === 'failed' && result.error) writer.write({ type: 'error', errorText: result.error.message });
      },
      onError: (error) => (error instanceof Error ? error.message : String(error)),
    });
  }
}
