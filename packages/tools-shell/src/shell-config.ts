import type { CompactDecision, CompactHookArgs, ServerToolConfig } from '@aibuddy/registry';
import { formatExecuteModelView } from './exec-result.js';
import type { ExecuteOutput } from './exec-result.js';
import {
  createExecuteTool,
  DEFAULT_EXECUTE_TIMEOUT_MS,
  EXECUTE_MAX_MODEL_CHARS,
  MAX_EXECUTE_TIMEOUT_MS,
} from './execute-tool.js';
import type { ExecuteToolOptions } from './execute-tool.js';
import './sandbox-service.js';

/** Options of {@link createShellToolConfig}: the limits and policy of `execute`. */
export type ShellToolConfigOptions = ExecuteToolOptions;

/**
 * Compaction of command output for later steps: the same head/tail view, just with a smaller
 * budget (about four characters per token), so exit code, duration and the tail stay visible.
 */
function compactExecute(args: CompactHookArgs): CompactDecision {
  if (args.tokens <= args.targetTokens) return { strategy: 'keep' };
  const output = args.output as ExecuteOutput;
  if (typeof output !== 'object' || output === null || typeof output.stdout !== 'string') return { strategy: 'keep' };
  const budget = Math.max(1_000, args.targetTokens * 4 - 400);
  return { strategy: 'trim', modelOutput: formatExecuteModelView(output, budget).text };
}

/**
 * The `shell` group: the `execute` tool, bound to the run's sandbox (`services.sandbox`). Without a
 * sandbox the group yields nothing ("no sandbox in this host").
 *
 * @example
 * const shell = createShellToolConfig({ graceMs: 30_000, allow: ['npm test'] });
 * const set = await resolveToolSet({ configs: [shell], services: { sandbox } });
 */
export function createShellToolConfig(options: ShellToolConfigOptions = {}): ServerToolConfig {
  const defaultSeconds = (options.defaultTimeoutMs ?? DEFAULT_EXECUTE_TIMEOUT_MS) / 1000;
  const maxSeconds = (options.maxTimeoutMs ?? MAX_EXECUTE_TIMEOUT_MS) / 1000;
  const maxChars = options.maxModelChars ?? EXECUTE_MAX_MODEL_CHARS;
  return {
    key: 'shell',
    toolNames: ['execute'],
    requires: { services: ['sandbox'] },
    create: ({ services }) => (services.sandbox ? [createExecuteTool(services.sandbox, options)] : []),
    instructions: () =>
      [
        `execute runs shell commands in the workspace. timeout is in seconds (default ${defaultSeconds}, at most ${maxSeconds}); the process tree is killed when it passes.`,
        `You see at most ${maxChars} characters of output (head and tail, with the exact count omitted); filter long output with grep/head/tail instead of printing it all.`,
        'A non-zero exit code is a result to read, not a failure of the tool.',
        "Only commands proven harmless (read-only programs such as ls, cat, rg, find, git status/diff/log) or covered by the host's allow rules run at once; anything else needs a person's confirmation, so prefer plain read-only commands and the file tools.",
        'After changing files, verify: run the tests or build that cover the change.',
      ].join('\n'),
    hooks: { compact: compactExecute },
  };
}

/** The `shell` group with default limits (120 s default timeout, 600 s max, 30 s grace, 30,000 characters). */
export const shellToolConfig: ServerToolConfig = createShellToolConfig();
