import { ToolError } from './errors.js';
import type { ServerToolConfig, ToolConfigContext } from './server-tool-config.js';
import type { TaskContext, TaskPrecondition, ToolServices } from './services.js';
import type { AnyToolDefinition, ToolDefinition } from './tool-definition.js';

/** A tool offered to a run, with the group it came from. */
export interface ResolvedTool {
  /** The key of the config that yielded it. */
  configKey: string;
  /** Whether the tool is core (always visible, never deferred). */
  core: boolean;
  /** The definition, with the group's result hooks filled in where the tool has none. */
  definition: AnyToolDefinition;
}

/** A config that yields nothing for this run, and why. */
export interface ExcludedConfig {
  /** The config key. */
  key: string;
  /** Why it yields nothing (for example "no sandbox in this host"). */
  reason: string;
}

/** The tools of one run. */
export interface ResolvedToolSet {
  /** The tools offered, in config order. */
  tools: ResolvedTool[];
  /** Run notes of the groups that are present, in config order. */
  instructions: { key: string; text: string }[];
  /** Configs that yield nothing, each with its reason. */
  excluded: ExcludedConfig[];
}

/** What `resolveToolSet` takes. */
export interface ResolveToolSetOptions {
  /** Every config the host knows. */
  configs: readonly ServerToolConfig[];
  /** The config keys this run asks for; all configs when omitted. */
  toolKeys?: readonly string[];
  /** The services injected for this run. */
  services?: ToolServices;
  /** The task the run works on. */
  task?: TaskContext;
}

/** A precondition that the task has been granted a capability (for example `team`). */
export function requireCapability(capability: string): TaskPrecondition {
  return {
    name: `capability:${capability}`,
    check: (task) => (task.capabilities?.includes(capability) ? true : `${capability} capability not available for this task`),
  };
}

function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false;
}

/**
 * Resolves the tools of one run: `toolKeys` × injected services × task preconditions → tools,
 * their instructions, and every config that yields nothing with its reason. Registering a config
 * grants nothing; a missing dependency yields an empty set, never a tool bound to fail.
 */
export async function resolveToolSet(options: ResolveToolSetOptions): Promise<ResolvedToolSet> {
  const services = options.services ?? {};
  const task = options.task ?? {};
  const wanted = options.toolKeys ? new Set(options.toolKeys) : undefined;
  const known = new Set(options.configs.map((c) => c.key));
  const result: ResolvedToolSet = { tools: [], instructions: [], excluded: [] };

  for (const key of wanted ?? []) {
    if (!known.has(key)) result.excluded.push({ key, reason: `no config with key "${key}" is registered in this host` });
  }

  for (const config of options.configs) {
    if (wanted && !wanted.has(config.key)) {
      result.excluded.push({ key: config.key, reason: "not in this run's toolKeys" });
      continue;
    }
    const missing = (config.requires?.services ?? []).filter((name) => !isPresent(services[name]));
    if (missing.length > 0) {
      result.excluded.push({ key: config.key, reason: missing.map((name) => `no ${name} in this host`).join('; ') });
      continue;
    }
    const unmet = (config.requires?.preconditions ?? []).map((p) => p.check(task)).filter((r): r is string => r !== true);
    if (unmet.length > 0) {
      result.excluded.push({ key: config.key, reason: unmet.join('; ') });
      continue;
    }
    const context: ToolConfigContext = { services, task };
    const definitions = await config.create(context);
    if (definitions.length === 0) {
      result.excluded.push({ key: config.key, reason: 'its dependencies yielded no tools for this run' });
      continue;
    }
    for (const definition of definitions) {
      if (!config.toolNames.includes(definition.name)) {
        throw new ToolError(
          `config "${config.key}" created tool "${definition.name}", which is not among its toolNames. Add it to toolNames and the name map.`,
          { stage: 'discovery', toolName: definition.name, retryable: false },
        );
      }
      result.tools.push({ configKey: config.key, core: config.core ?? true, definition: withGroupHooks(definition, config) });
    }
    const text = config.instructions?.(context);
    if (text) result.instructions.push({ key: config.key, text });
  }
  return result;
}

function withGroupHooks(definition: AnyToolDefinition, config: ServerToolConfig): AnyToolDefinition {
  const hooks = config.hooks;
  if (!hooks) return definition;
  const merged: ToolDefinition = { ...definition };
  if (!merged.toModelOutput && hooks.toModelOutput) merged.toModelOutput = hooks.toModelOutput;
  if (!merged.toClient && hooks.toClient) merged.toClient = hooks.toClient;
  if (!merged.compact && hooks.compact) merged.compact = hooks.compact;
  return merged;
}
