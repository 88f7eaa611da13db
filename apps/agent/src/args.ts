import { parseArgs } from 'node:util';
import { ArgumentError } from './errors.js';

/** How deferred tools are presented to the model (see `@aibuddy/defer`). */
export type DeferPathOption = 'auto' | 'native' | 'active-tools';

/** Options shared by `run` and `tools`. */
export interface CompositionArgs {
  /** `--workspace`: the workspace folder (resolved later). */
  workspace: string | undefined;
  /** `--model`: a model spec (`replay:FILE`, `anthropic:MODEL`, `openai:MODEL`, `openai-compatible:MODEL`). */
  model: string | undefined;
  /** `--base-url`: where the provider is reached. */
  baseUrl: string | undefined;
  /** `--mcp-config`: an `mcpServers` JSON file. */
  mcpConfig: string | undefined;
  /** `--skills`: a folder of skills. */
  skills: string | undefined;
  /** `--task-id`: the task (run) id. */
  taskId: string | undefined;
  /** `--data-dir`: where compacted outputs live. */
  dataDir: string | undefined;
  /** `--events`: the JSONL event log to append to. */
  events: string | undefined;
  /** `--yes` / `--no`, or `undefined` when neither was given. */
  confirm: 'approve' | 'reject' | undefined;
  /** `--defer-path`. */
  deferPath: DeferPathOption;
  /** `--embedding-model openai:MODEL`: semantic retrieval fused into tool_search (opt-in); absent when not given. */
  embeddingModel?: string | undefined;
  /** `--allow` (repeatable): command prefixes that run without confirmation. Absent when none was given. */
  allow?: string[];
  /** `--config`: the host config file (default `$XDG_CONFIG_HOME/aibuddy/config.json`). */
  config?: string | undefined;
  /** `--capability NAME` (repeatable): capabilities granted to the task; absent when none. */
  capabilities?: string[] | undefined;
  /** `--chunk-timeout SECONDS`: the stream's chunk timeout; absent for the default (120 s). */
  chunkTimeoutSeconds?: number | undefined;
  /** `--mcp-wait SECONDS`: how long `run` waits for MCP servers before the first step; absent for the default (10 s). */
  mcpWaitSeconds?: number | undefined;
  /** `--resume`: continue the persisted task `--task-id`; absent when not given. */
  resume?: true | undefined;
}

/** A parsed command line. */
export type ParsedCommand =
  | { command: 'help'; topic: string | undefined }
  | { command: 'version' }
  | { command: 'run'; task: string | undefined; options: CompositionArgs }
  | { command: 'tools'; json: boolean; options: CompositionArgs }
  | {
      command: 'view-call';
      toolCallId: string;
      taskId: string | undefined;
      dataDir: string | undefined;
      workspace: string | undefined;
      json: boolean;
      /** `--part input|output` (absent: output). */
      part?: 'input' | 'output' | undefined;
    }
  | { command: 'tasks'; workspace: string | undefined; dataDir: string | undefined; json: boolean };

/** The usage text printed by `--help` and after argument errors. */
export const USAGE = `Usage:
  aibuddy run ["<task>"] [options]      run a task (no task: the built-in demo)
  aibuddy tools [--json] [options]      the resolved tool set: direct, deferred, excluded, defer path
  aibuddy view-call <toolCallId> [--task-id ID] [--data-dir DIR] [--part input|output] [--json]
                                        print the raw input or output of a saved tool call
  aibuddy tasks [--workspace DIR] [--data-dir DIR] [--json]
                                        the persisted tasks: id, started, steps, last status
  aibuddy --help

Options of run and tools:
  --workspace DIR        workspace folder (default: the current folder; the demo uses a fresh temp folder)
  --model SPEC           replay:FILE | anthropic:MODEL | openai:MODEL | openai-compatible:MODEL
                         (default: from ANTHROPIC_API_KEY / OPENAI_API_KEY; with no key, the demo replay)
  --base-url URL         provider endpoint (required for openai-compatible)
  --mcp-config FILE      {"mcpServers": {"name": {"command","args","env"} | {"url"}}}
  --skills DIR           folder of skills (<name>/SKILL.md)
  --task-id ID           task id (letters, digits, ".", "_", "-"; default: generated)
  --data-dir DIR         data folder, outside the workspace (default: $XDG_STATE_HOME/aibuddy/<workspace id>,
                         else ~/.local/state/aibuddy/<workspace id>)
  --resume               continue the persisted task --task-id (its history and discovered tools)
  --capability NAME      grant the task a capability (repeatable); groups that need one are excluded without it
  --chunk-timeout SECS   abort a stream silent for this long (default 120; live tool calls send heartbeats)
  --mcp-wait SECS        run: wait this long for MCP servers before the first step (default 10; 0 = not at all);
                         slower servers join the run when they are up (tools waits for every server)
  --events FILE          append the JSONL event log to FILE
  --yes | --no           approve | reject every confirmation request without asking
  --defer-path PATH      auto | native | active-tools (default auto)
  --embedding-model SPEC openai:MODEL (e.g. openai:text-embedding-3-small): tool_search fuses semantic similarity
                         with its lexical ranking; reads OPENAI_API_KEY and OPENAI_BASE_URL; vectors cached in the data dir
  --allow "PREFIX"       a command prefix that runs without confirmation (repeatable), e.g. --allow "npm test"
  --config FILE          host config with an "allow" list (default: $XDG_CONFIG_HOME/aibuddy/config.json;
                         never a file inside the workspace)
`;

const compositionOptions = {
  workspace: { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'mcp-config': { type: 'string' },
  skills: { type: 'string' },
  'task-id': { type: 'string' },
  'data-dir': { type: 'string' },
  events: { type: 'string' },
  yes: { type: 'boolean', short: 'y' },
  no: { type: 'boolean' },
  'defer-path': { type: 'string' },
  'embedding-model': { type: 'string' },
  allow: { type: 'string', multiple: true },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  resume: { type: 'boolean' },
  capability: { type: 'string', multiple: true },
  'chunk-timeout': { type: 'string' },
  'mcp-wait': { type: 'string' },
} as const;

const TASK_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;
const MODEL_PROVIDERS = ['replay', 'anthropic', 'openai', 'openai-compatible'] as const;

type OptionSpec = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;
type ParsedValues = Record<string, string | boolean | string[] | undefined>;

function parse(command: string, args: string[], options: OptionSpec): { values: ParsedValues; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: values as ParsedValues, positionals };
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '.');
    throw new ArgumentError(`aibuddy ${command}: ${message}`);
  }
}

function nonEmpty(name: string, value: string | undefined): string | undefined {
  if (value !== undefined && value.trim() === '') throw new ArgumentError(`--${name} needs a value; it was empty.`);
  return value;
}

function compositionArgs(command: string, values: ParsedValues): CompositionArgs {
  const str = (name: string) => nonEmpty(name, values[name] as string | undefined);
  if (values.yes && values.no) {
    throw new ArgumentError(`aibuddy ${command}: --yes and --no contradict each other; pass at most one.`);
  }
  const deferPath = str('defer-path') ?? 'auto';
  if (deferPath !== 'auto' && deferPath !== 'native' && deferPath !== 'active-tools') {
    throw new ArgumentError(`--defer-path must be auto, native or active-tools (got "${deferPath}").`);
  }
  const model = str('model');
  if (model !== undefined) {
    const colon = model.indexOf(':');
    const provider = colon < 0 ? model : model.slice(0, colon);
    if (colon <= 0 || colon === model.length - 1 || !(MODEL_PROVIDERS as readonly string[]).includes(provider)) {
      throw new ArgumentError(
        `--model "${model}" is not a model spec. Write replay:FILE, anthropic:MODEL, openai:MODEL or openai-compatible:MODEL ` +
          `(for example anthropic:claude-sonnet-4-5).`,
      );
    }
  }
  const baseUrl = str('base-url');
  if (baseUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new ArgumentError(`--base-url "${baseUrl}" is not a URL; write it in full, for example http://127.0.0.1:8080/v1.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ArgumentError(`--base-url must be an http:// or https:// URL (got "${baseUrl}").`);
    }
  }
  const allow = values.allow as string[] | undefined;
  for (const rule of allow ?? []) {
    if (rule.trim() === '')
      throw new ArgumentError('--allow needs a command prefix, for example --allow "npm test"; it was empty.');
  }
  const taskId = str('task-id');
  if (taskId !== undefined && !TASK_ID_PATTERN.test(taskId)) {
    throw new ArgumentError(`--task-id "${taskId}" may only contain letters, digits, ".", "_" and "-" (at most 128 characters).`);
  }
  const capabilities = values.capability as string[] | undefined;
  for (const capability of capabilities ?? []) {
    if (!/^[A-Za-z0-9._:-]{1,64}$/.test(capability)) {
      throw new ArgumentError(`--capability "${capability}" is not a capability name (letters, digits, ".", "_", ":", "-").`);
    }
  }
  const chunkTimeout = str('chunk-timeout');
  const chunkTimeoutSeconds = chunkTimeout === undefined ? undefined : Number(chunkTimeout);
  if (chunkTimeoutSeconds !== undefined && !(Number.isFinite(chunkTimeoutSeconds) && chunkTimeoutSeconds > 0)) {
    throw new ArgumentError(
      `--chunk-timeout must be a positive number of seconds (got "${chunkTimeout}"), for example --chunk-timeout 120.`,
    );
  }
  const mcpWait = str('mcp-wait');
  const mcpWaitSeconds = mcpWait === undefined ? undefined : Number(mcpWait);
  if (mcpWaitSeconds !== undefined && !(Number.isFinite(mcpWaitSeconds) && mcpWaitSeconds >= 0)) {
    throw new ArgumentError(
      `--mcp-wait must be a number of seconds, 0 or more (got "${mcpWait}"), for example --mcp-wait 30; 0 starts at once.`,
    );
  }
  if (values.resume === true && taskId === undefined) {
    throw new ArgumentError('--resume continues a persisted task: pass its --task-id too (aibuddy tasks lists them).');
  }
  return {
    ...(capabilities && capabilities.length > 0 ? { capabilities: [...new Set(capabilities)] } : {}),
    ...(chunkTimeoutSeconds !== undefined ? { chunkTimeoutSeconds } : {}),
    ...(mcpWaitSeconds !== undefined ? { mcpWaitSeconds } : {}),
    ...(values.resume === true ? { resume: true as const } : {}),
    workspace: str('workspace'),
    model,
    baseUrl,
    mcpConfig: str('mcp-config'),
    skills: str('skills'),
    taskId,
    dataDir: str('data-dir'),
    events: str('events'),
    confirm: values.yes ? 'approve' : values.no ? 'reject' : undefined,
    deferPath,
    ...(values['embedding-model'] !== undefined ? { embeddingModel: str('embedding-model') } : {}),
    ...(allow && allow.length > 0 ? { allow } : {}),
    ...(values.config !== undefined ? { config: str('config') } : {}),
  };
}

/**
 * Parses `aibuddy` arguments (without `node` and the script). Throws `ArgumentError` naming what
 * to fix; the CLI prints it and exits with code 2.
 */
export function parseCommandLine(argv: readonly string[]): ParsedCommand {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    return { command: 'help', topic: command === 'help' ? rest[0] : undefined };
  }
  if (command === '--version' || command === '-v') return { command: 'version' };
  switch (command) {
    case 'run': {
      const { values, positionals } = parse('run', rest, compositionOptions);
      if (values.help) return { command: 'help', topic: 'run' };
      if (positionals.length > 1) {
        throw new ArgumentError(
          `aibuddy run takes one task, got ${positionals.length} words (${positionals
            .slice(0, 3)
            .map((p) => JSON.stringify(p))
            .join(' ')}...). Quote the task: aibuddy run "fix the failing test".`,
        );
      }
      const task = positionals[0];
      if (task !== undefined && task.trim() === '')
        throw new ArgumentError('aibuddy run: the task is empty; write what the agent should do, or omit it for the demo.');
      return { command: 'run', task, options: compositionArgs('run', values) };
    }
    case 'tools': {
      const { values, positionals } = parse('tools', rest, { ...compositionOptions, json: { type: 'boolean' } });
      if (values.help) return { command: 'help', topic: 'tools' };
      if (positionals.length > 0)
        throw new ArgumentError(`aibuddy tools takes no task (got ${JSON.stringify(positionals[0])}); pass only options.`);
      return { command: 'tools', json: values.json === true, options: compositionArgs('tools', values) };
    }
    case 'view-call': {
      const { values, positionals } = parse('view-call', rest, {
        'task-id': { type: 'string' },
        'data-dir': { type: 'string' },
        workspace: { type: 'string' },
        json: { type: 'boolean' },
        part: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      });
      if (values.help) return { command: 'help', topic: 'view-call' };
      const part = nonEmpty('part', values.part as string | undefined);
      if (part !== undefined && part !== 'input' && part !== 'output') {
        throw new ArgumentError(`--part must be input or output (got "${part}").`);
      }
      if (positionals.length !== 1) {
        throw new ArgumentError(
          positionals.length === 0
            ? 'aibuddy view-call needs the tool call id, for example: aibuddy view-call call-3-0 --task-id demo.'
            : `aibuddy view-call takes one tool call id, got ${positionals.length}.`,
        );
      }
      const taskId = nonEmpty('task-id', values['task-id'] as string | undefined);
      if (taskId !== undefined && !TASK_ID_PATTERN.test(taskId)) {
        throw new ArgumentError(`--task-id "${taskId}" may only contain letters, digits, ".", "_" and "-".`);
      }
      return {
        command: 'view-call',
        toolCallId: positionals[0]!,
        taskId,
        dataDir: nonEmpty('data-dir', values['data-dir'] as string | undefined),
        workspace: nonEmpty('workspace', values.workspace as string | undefined),
        json: values.json === true,
        ...(part !== undefined ? { part } : {}),
      };
    }
    case 'tasks': {
      const { values, positionals } = parse('tasks', rest, {
        'data-dir': { type: 'string' },
        workspace: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      });
      if (values.help) return { command: 'help', topic: 'tasks' };
      if (positionals.length > 0)
        throw new ArgumentError(`aibuddy tasks takes no arguments (got ${JSON.stringify(positionals[0])}); pass only options.`);
      return {
        command: 'tasks',
        workspace: nonEmpty('workspace', values.workspace as string | undefined),
        dataDir: nonEmpty('data-dir', values['data-dir'] as string | undefined),
        json: values.json === true,
      };
    }
    default:
      throw new ArgumentError(`unknown command "${command}". Commands: run, tools, view-call, tasks (see aibuddy --help).`);
  }
}
