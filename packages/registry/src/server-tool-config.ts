import type { ServiceName, TaskContext, TaskPrecondition, ToolServices } from './services.js';
import type { AnyToolDefinition, ToolResultHooks } from './tool-definition.js';

/** What a config's `create` and `instructions` receive. */
export interface ToolConfigContext {
  /** The services injected for this run; every required one is present. */
  services: ToolServices;
  /** The task the run works on. */
  task: TaskContext;
}

/** What a config needs before its tools are offered. */
export interface ToolConfigRequirements {
  /** Services that must be injected (for example `sandbox`, `mcp`). */
  services?: readonly ServiceName[];
  /** Conditions on the task (capabilities, flags). */
  preconditions?: readonly TaskPrecondition[];
}

/**
 * A group of tools that share requirements, run instructions and result hooks. One config can
 * yield several tools (the filesystem group yields six); each tool name maps back to its group.
 */
export interface ServerToolConfig {
  /** Stable key, used in `toolKeys`, `TOOL_CONFIG_METAS` and the name map. */
  key: string;
  /** Every tool this config can yield, as the model sees their names. */
  toolNames: readonly string[];
  /** What must be present for the tools to be offered. */
  requires?: ToolConfigRequirements;
  /** Core tools are always visible and never deferred. Defaults to `true`. */
  core?: boolean;
  /**
   * Builds the tools for one run. Return an empty array when something the config needs is
   * missing: a tool that can only fail is never offered.
   */
  create(context: ToolConfigContext): readonly AnyToolDefinition[] | Promise<readonly AnyToolDefinition[]>;
  /** Run notes for the system prompt; included only when the group's tools are present. */
  instructions?(context: ToolConfigContext): string | undefined;
  /** Result hooks shared by every tool of the group (a tool's own hook wins). */
  hooks?: ToolResultHooks;
}

/** Display metadata of a config, for UIs (the shape of `TOOL_CONFIG_METAS` entries). */
export interface ToolConfigMeta {
  /** Human title. */
  title: string;
  /** One sentence on what the group is for. */
  description: string;
  /** Grouping for UIs. */
  category: 'workspace' | 'execution' | 'interaction' | 'discovery' | 'context' | 'integration';
}
