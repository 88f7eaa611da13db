import { RegistryConsistencyError, ToolError } from '@aibuddy/registry';
import { SandboxPathError } from '@aibuddy/sandbox';
import { parseCommandLine, USAGE } from './args.js';
import type { ParsedCommand } from './args.js';
import { EXIT_CODES } from './cli-setup.js';
import type { CliIO } from './cli-setup.js';
import { AgentStartupError, ArgumentError } from './errors.js';
import { runCommand } from './run-command.js';
import { tasksCommand, viewCall } from './store-commands.js';
import { cliMessage } from './terminal-text.js';
import { toolsCommand } from './tools-command.js';

export type { CliIO } from './cli-setup.js';

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
