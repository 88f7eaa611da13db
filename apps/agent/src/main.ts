import { accessSync, constants as fsConstants, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { RegistryConsistencyError, ToolError } from '@aibuddy/registry';
import { SandboxPathError } from '@aibuddy/sandbox';
import { parseCommandLine, USAGE } from './args.js';
import type { CompositionArgs, ParsedCommand } from './args.js';
import type { ComposedAgent, ToolsReport } from './compose.js';
import { chooseHostConfirmation } from './confirmation.js';
import type { createModel as CreateModel } from './create-model.js';
import type { ModelInfo } from './create-model.js';
import { DEMO_ALLOW_RULES, DEMO_TASK, demoMcpConfig, demoScript } from './demo.js';
import { AgentStartupError, ArgumentError } from './errors.js';
import { loadHostCommandRules } from './host-config.js';
import type { HostCommandRules } from './host-config.js';
import { openEventLog } from './events.js';
import type { EventLog } from './events.js';
import { createRenderer } from './renderer.js';
import { resolveDataDir } from './data-dir.js';
import { tasksCommand } from './tasks-command.js';
import { cliMessage, plural } from './terminal-text.js';
import { viewCall } from './view-call.js';

/** Exit codes of the CLI. */
export const EXIT_CODES = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

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

interface Setup {
  model: ModelInfo;
  workspace: string;
  temporaryWorkspace: boolean;
  mcpConfig: string | { mcpServers: Record<string, unknown> } | undefined;
  taskId: string;
  rules: HostCommandRules;
}

async function setUp(options: CompositionArgs, env: Record<string, string | undefined>, wantsDemo: boolean): Promise<Setup> {
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

function heartbeatFromEnv(env: Record<string, string | undefined>): number | undefined {
  const raw = env.AIBUDDY_HEARTBEAT_MS;
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new ArgumentError(`AIBUDDY_HEARTBEAT_MS must be a number of milliseconds (got "${raw}").`);
  return value;
}

/** One line on how commands are confined; says plainly when their process tree can outlive the call. */
function isolationLine(report: ToolsReport): string {
  const iso = report.isolation;
  if (!iso) return 'confinement not described by this sandbox';
  const tree = iso.killsTree
    ? 'process tree dies with the call and with aibuddy'
    : 'NOT tree-killing: a daemon may outlive the call';
  return `${iso.mode} (${tree})${iso.reason ? `; ${iso.reason}` : ''}${iso.limits ? `; limits: ${iso.limits}` : ''}`;
}

function printToolsText(report: ToolsReport, write: (s: string) => void): void {
  write(`sandbox: ${isolationLine(report)}\n`);
  write(`defer path: ${report.deferPath} (${report.deferPathReason})\n`);
  write(`direct (${report.direct.length}): ${report.direct.map((t) => t.name).join(', ') || '-'}\n`);
  if (report.deferred.length > 0) {
    write(`deferred (${report.deferred.length}), found through tool_search:\n`);
    const byServer = new Map<string, { names: string[]; reason: string }>();
    for (const d of report.deferred) {
      const entry = byServer.get(d.server) ?? { names: [], reason: d.reason };
      entry.names.push(d.name);
      byServer.set(d.server, entry);
    }
    for (const [server, { names, reason }] of byServer) write(`  ${server}: ${names.join(', ')}\n    why: ${reason}\n`);
  } else write('deferred: none\n');
  if (report.excluded.length > 0) {
    write('excluded:\n');
    for (const e of report.excluded) write(`  ${e.key}: ${e.reason}\n`);
  }
  if (report.commandPolicy) {
    const { allow, protectedPaths } = report.commandPolicy;
    write(`commands: read-only commands run at once; anything else not covered by an allow rule needs confirmation\n`);
    write(`allow rules (${allow.length}):${allow.length === 0 ? ' none' : ''}\n`);
    for (const r of allow) write(`  ${r.rule}  [${r.source}]\n`);
    write(`protected paths: ${protectedPaths.join(', ')}\n`);
  }
}

async function runCommand(parsed: Extract<ParsedCommand, { command: 'run' }>, io: CliIO): Promise<number> {
  const { options } = parsed;
  const heartbeatIntervalMs = heartbeatFromEnv(io.env);
  const setup = await setUp(options, io.env, parsed.task === undefined);
  const task = parsed.task ?? DEMO_TASK;
  const dataDir = resolveDataDir(options.dataDir, setup.workspace, io.env);
  const out = (s: string) => io.stdout.write(s);
  const renderer = createRenderer({ out: io.stdout, ...(setup.model.demo ? { elapsedEveryMs: 1000 } : {}) });
  const interactive = io.stdin.isTTY === true && io.stderr.isTTY === true;
  const confirmation = chooseHostConfirmation({
    flag: options.confirm,
    interactive,
    demo: setup.model.demo,
    input: io.stdin,
    output: io.stderr,
  });
  let log: EventLog | undefined;
  if (options.events) {
    try {
      log = openEventLog(resolve(options.events));
    } catch (error) {
      throw new ArgumentError(`--events ${options.events}: cannot open the file for appending (${(error as Error).message}).`);
    }
  }

  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = (signal: NodeJS.Signals) => {
    interrupts++;
    if (interrupts === 1) {
      io.stderr.write(
        `\naibuddy: stopping on ${signal} (${signal === 'SIGINT' ? 'Ctrl-C' : 'the signal'} again to quit at once)…\n`,
      );
      controller.abort(new Error(`stopped by ${signal === 'SIGINT' ? 'the user (SIGINT)' : signal}`));
    } else {
      process.exit(EXIT_CODES.interrupted);
    }
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);

  if (setup.model.demo) {
    out(`aibuddy demo: a scripted model (no key, no network) in a fresh temporary workspace.\n`);
    if (parsed.task !== undefined)
      out(`(no --model and no API key: the built-in demo script plays instead of "${parsed.task}")\n`);
  }
  out(
    `workspace: ${setup.workspace}\nmodel:     ${setup.model.spec}\ntask id:   ${setup.taskId}\nconfirm:   ${confirmation.answeredBy}\n`,
  );
  const extraRules = setup.rules.allow.filter((r) => r.source !== 'default');
  out(
    `allow:     ${setup.rules.allow.some((r) => r.source === 'default') ? 'the development defaults (tests, builds)' : 'no defaults'}` +
      `${extraRules.length > 0 ? ` + ${extraRules.map((r) => `"${r.rule}" [${r.source}]`).join(', ')}` : ''}` +
      `${setup.rules.configFile ? ` (config ${setup.rules.configFile})` : ''}; other commands need confirmation unless proven read-only\n`,
  );

  try {
    // Loaded on demand: `--help` and argument errors stay fast without the AI SDK and providers.
    const { runTask } = await import('./run-task.js');
    const result = await runTask({
      task,
      workspace: setup.workspace,
      model: setup.model,
      ...(setup.mcpConfig ? { mcpConfig: setup.mcpConfig } : {}),
      ...(options.skills ? { skillsDir: resolve(options.skills) } : {}),
      taskId: setup.taskId,
      dataDir,
      ...(options.resume ? { resume: true } : {}),
      ...(options.capabilities ? { capabilities: options.capabilities } : {}),
      ...(options.chunkTimeoutSeconds !== undefined ? { chunkTimeoutMs: options.chunkTimeoutSeconds * 1000 } : {}),
      deferPath: options.deferPath,
      ...(options.embeddingModel
        ? { embeddingModel: (await import('./embedding-model.js')).createEmbeddingModel(options.embeddingModel, io.env) }
        : {}),
      allow: setup.rules.allow,
      confirmation,
      renderer,
      signal: controller.signal,
      ...(heartbeatIntervalMs !== undefined ? { heartbeatIntervalMs } : {}),
      onEvent: (event) => log?.write(event),
      onWarning: (message) => io.stderr.write(`${cliMessage(message)}\n`),
      onComposed: (agent: ComposedAgent) => {
        out(`tools:     ${agent.report.direct.map((t) => t.name).join(', ')}\n`);
        if (agent.report.deferred.length > 0)
          out(`deferred:  ${plural(agent.report.deferred.length, 'tool')} behind tool_search (${agent.report.deferPath})\n`);
        out(`data dir:  ${agent.dataDir}\n`);
        out(`sandbox:   ${isolationLine(agent.report)}\n\n`);
      },
    });
    renderer.close();
    if (result.status === 'completed') {
      out(`\n✔ done in ${plural(result.steps, 'model call')}.\n`);
      if (setup.model.demo) {
        out(
          `\nThe full output of the long command is kept on disk. Page through it with:\n` +
            `  npx -y pnpm@12.4.2 aibuddy view-call demo-run --task-id ${result.taskId} --data-dir ${result.dataDir}\n` +
            `(from this checkout; where @aibuddy/agent is installed, plain \`aibuddy view-call …\`)\n` +
            `Workspace left for you to look at: ${result.workspace}\n`,
        );
      }
      return EXIT_CODES.ok;
    }
    io.stderr.write(`\n${cliMessage(`aibuddy run ${result.status}: ${result.error?.message ?? 'unknown error'}`)}\n`);
    // Only a person's stop is an interruption; a chunk timeout is a failure of the run.
    return result.status === 'aborted' && controller.signal.aborted ? EXIT_CODES.interrupted : EXIT_CODES.failed;
  } finally {
    renderer.close();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    log?.close();
  }
}

async function toolsCommand(parsed: Extract<ParsedCommand, { command: 'tools' }>, io: CliIO): Promise<number> {
  const setup = await setUp(parsed.options, io.env, true);
  const confirmation = chooseHostConfirmation({
    flag: parsed.options.confirm,
    interactive: io.stdin.isTTY === true,
    demo: setup.model.demo,
  });
  const warnings: string[] = [];
  let agent: ComposedAgent | undefined;
  try {
    const { composeAgent } = await import('./compose.js');
    agent = await composeAgent({
      workspace: setup.workspace,
      model: setup.model,
      ...(setup.mcpConfig ? { mcpConfig: setup.mcpConfig } : {}),
      ...(parsed.options.skills ? { skillsDir: resolve(parsed.options.skills) } : {}),
      taskId: setup.taskId,
      dataDir: resolveDataDir(parsed.options.dataDir, setup.workspace, io.env),
      ...(parsed.options.capabilities ? { capabilities: parsed.options.capabilities } : {}),
      deferPath: parsed.options.deferPath,
      allow: setup.rules.allow,
      confirmation,
      onWarning: (message) => warnings.push(message),
    });
    const report = agent.report;
    if (parsed.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else printToolsText(report, (s) => io.stdout.write(s));
    for (const w of warnings) io.stderr.write(`${cliMessage(w)}\n`);
    return EXIT_CODES.ok;
  } finally {
    await agent?.close();
    if (setup.temporaryWorkspace) rmSync(setup.workspace, { recursive: true, force: true });
  }
}

/**
 * Runs the `aibuddy` command line and resolves with the exit code: 0 done, 1 failed, 2 bad
 * arguments, 130 stopped.
 */
export async function main(
  argv: readonly string[],
  io: CliIO = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env },
): Promise<number> {
  let parsed: ParsedCommand;
  try {
    parsed = parseCommandLine(argv);
    switch (parsed.command) {
      case 'help':
        io.stdout.write(USAGE);
        return EXIT_CODES.ok;
      case 'version':
        io.stdout.write('aibuddy 0.1.0\n');
        return EXIT_CODES.ok;
      case 'run':
        return await runCommand(parsed, io);
      case 'tools':
        return await toolsCommand(parsed, io);
      case 'view-call':
        return await viewCall(parsed, io);
      case 'tasks':
        return await tasksCommand(parsed, io);
    }
  } catch (error) {
    if (ArgumentError.isInstance(error)) {
      io.stderr.write(`${cliMessage(error.message)}\nRun "aibuddy --help" for the options.\n`);
      return EXIT_CODES.usage;
    }
    if (SandboxPathError.isInstance(error) || (AgentStartupError.isInstance(error) && SandboxPathError.isInstance(error.cause))) {
      // A refused workspace root (/, the home folder, a system folder): a bad argument, not a failed run.
      const reason = SandboxPathError.isInstance(error) ? error.message : (error.cause as Error).message;
      io.stderr.write(
        `${cliMessage(`--workspace refused: ${reason}`)}\nPass a project folder (not /, your home folder or a system folder).\n`,
      );
      return EXIT_CODES.usage;
    }
    if (AgentStartupError.isInstance(error) || RegistryConsistencyError.isInstance(error) || ToolError.isInstance(error)) {
      // Stage-attributed start-up failures (an invalid MCP config, a registry mismatch): the message names the fix.
      io.stderr.write(`${cliMessage(error.message)}\n`);
      return EXIT_CODES.failed;
    }
    throw error;
  }
}
