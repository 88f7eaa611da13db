import { resolve } from 'node:path';
import type { ParsedCommand } from './args.js';
import { EXIT_CODES, setUp } from './cli-setup.js';
import type { CliIO } from './cli-setup.js';
import type { ComposedAgent } from './compose.js';
import { chooseHostConfirmation } from './confirmation.js';
import { resolveDataDir } from './data-dir.js';
import { DEMO_TASK } from './demo.js';
import { ArgumentError } from './errors.js';
import { openEventLog } from './events.js';
import type { EventLog } from './events.js';
import { createRenderer } from './renderer.js';
import { cliMessage, escapeControlLine, plural } from './terminal-text.js';
import { isolationLine } from './tools-command.js';

function heartbeatFromEnv(env: Record<string, string | undefined>): number | undefined {
  const raw = env.AIBUDDY_HEARTBEAT_MS;
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new ArgumentError(`AIBUDDY_HEARTBEAT_MS must be a number of milliseconds (got "${raw}").`);
  return value;
}

/** `aibuddy run`: one task (or the demo) in the terminal, Ctrl-C stopping it. Resolves with the exit code. */
export async function runCommand(parsed: Extract<ParsedCommand, { command: 'run' }>, io: CliIO): Promise<number> {
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
      const file = options.events;
      log = await openEventLog(resolve(file), {
        // The log records the run; it does not decide it. Stopping mid-edit would cost more than
        // the lost lines (the task history is persisted on its own), so the run goes on.
        onWriteError: (error) =>
          io.stderr.write(
            `${cliMessage(`[projection] --events ${file}: cannot write the event log (${error.message}); the log stops here, the run goes on. Fix: free space on that disk or pass another --events file.`)}\n`,
          ),
      });
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
  // A reader that went away (`aibuddy run | head -1`) is a stop, as SIGPIPE is for other programs:
  // the run is aborted (its commands killed), not left running with nowhere to write. The listener
  // stays: later writes to the closed stream report errors too, and must not crash the process.
  let outputClosed = false;
  io.stdout.on('error', () => {
    if (outputClosed) return;
    outputClosed = true;
    io.stderr.write('\naibuddy: the reader of the output went away; stopping the run…\n');
    controller.abort(new Error('stopped: the reader of the output went away'));
  });

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
      ...(options.mcpWaitSeconds !== undefined ? { mcpStartWaitMs: options.mcpWaitSeconds * 1000 } : {}),
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
        const starting = agent.mcpStarting();
        if (starting.length > 0)
          out(
            `starting:  ${plural(starting.length, 'MCP server')} (${escapeControlLine(starting.slice(0, 5).join(', '))}${starting.length > 5 ? ', …' : ''}): their tools join when they are up\n`,
          );
        out(`data dir:  ${agent.dataDir}\n`);
        out(`sandbox:   ${isolationLine(agent.report)}\n\n`);
      },
    });
    renderer.close();
    if (result.status === 'completed' && !outputClosed) {
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
    if (outputClosed) return EXIT_CODES.outputClosed;
    io.stderr.write(`\n${cliMessage(`aibuddy run ${result.status}: ${result.error?.message ?? 'unknown error'}`)}\n`);
    // Only a person's stop is an interruption; a chunk timeout is a failure of the run.
    return result.status === 'aborted' && controller.signal.aborted ? EXIT_CODES.interrupted : EXIT_CODES.failed;
  } finally {
    renderer.close();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    log?.close();
    const dropped = log?.dropped() ?? 0;
    if (dropped > 0) io.stderr.write(`${cliMessage(`--events ${options.events}: ${plural(dropped, 'event')} not written.`)}\n`);
  }
}
