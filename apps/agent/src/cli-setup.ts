import { accessSync, constants as fsConstants, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CompositionArgs } from './args.js';
import type { createModel as CreateModel, ModelInfo } from './create-model.js';
import { DEMO_ALLOW_RULES, demoMcpConfig, demoScript } from './demo.js';
import { ArgumentError } from './errors.js';
import { loadHostCommandRules } from './host-config.js';
import type { HostCommandRules } from './host-config.js';

/** Exit codes of the CLI. */
export const EXIT_CODES = { ok: 0, failed: 1, usage: 2, interrupted: 130, outputClosed: 141 } as const;

/** Where the CLI writes and what it reads; injectable for tests. */
export interface CliIO {
  /** Standard output. */
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  /** Standard error. */
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Standard input. */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** The environment. */
  env: Record<string, string | undefined>;
}

function newTaskId(): string {
  const now = new Date();
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `task-${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * A `--workspace` must be an existing folder this process can list and enter: a mistyped path is
 * never created silently, and an unreadable one is refused before the run rather than failing every tool.
 */
function checkWorkspace(path: string, given: string): string {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ArgumentError(
      code === 'ENOENT'
        ? `--workspace ${given}: no such folder (${path}). Create it first (mkdir -p "${path}") or check the spelling.`
        : `--workspace ${given}: cannot look at ${path} (${code ?? (error as Error).message}). Pass a folder you can read.`,
    );
  }
  if (!isDir) throw new ArgumentError(`--workspace ${given}: ${path} is not a folder. Pass the project folder.`);
  try {
    accessSync(path, fsConstants.R_OK | fsConstants.X_OK);
    readdirSync(path);
  } catch (error) {
    throw new ArgumentError(
      `--workspace ${given}: the folder ${path} is not readable by this user (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Fix its permissions or pass another folder.`,
    );
  }
  return path;
}

/** What `run` and `tools` start from: the model, the workspace, the MCP config, the task id, the allow rules. */
export interface Setup {
  model: ModelInfo;
  workspace: string;
  temporaryWorkspace: boolean;
  mcpConfig: string | { mcpServers: Record<string, unknown> } | undefined;
  taskId: string;
  rules: HostCommandRules;
}

/** Creates the model, checks (or creates, for the demo) the workspace and loads the allow rules. */
export async function setUp(
  options: CompositionArgs,
  env: Record<string, string | undefined>,
  wantsDemo: boolean,
): Promise<Setup> {
  const {
    createModel,
    defaultModelSpec,
  }: { createModel: typeof CreateModel; defaultModelSpec: (env: Record<string, string | undefined>, demo: boolean) => string } =
    await import('./create-model.js');
  const spec = options.model ?? defaultModelSpec(env, wantsDemo);
  const model = createModel(spec, { ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}), env, demoScript: demoScript() });
  let workspace: string;
  let temporaryWorkspace = false;
  if (options.workspace) workspace = checkWorkspace(resolve(options.workspace), options.workspace);
  else if (model.demo) {
    // The demo never touches the current folder: it works in a fresh temporary one.
    workspace = mkdtempSync(join(tmpdir(), 'aibuddy-demo-'));
    temporaryWorkspace = true;
  } else workspace = process.cwd();
  const mcpConfig = options.mcpConfig ? resolve(options.mcpConfig) : model.demo ? demoMcpConfig() : undefined;
  let rules: HostCommandRules;
  try {
    rules = loadHostCommandRules({
      allowFlags: options.allow,
      configPath: options.config === undefined ? undefined : resolve(options.config),
      env,
      workspace,
      ...(model.demo ? { demoRules: DEMO_ALLOW_RULES } : {}),
    });
  } catch (error) {
    if (temporaryWorkspace) rmSync(workspace, { recursive: true, force: true });
    throw error;
  }
  return { model, workspace, temporaryWorkspace, mcpConfig, taskId: options.taskId ?? newTaskId(), rules };
}
