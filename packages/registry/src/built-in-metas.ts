import type { ToolConfigMeta } from './server-tool-config.js';

/**
 * Display metadata for every built-in config, keyed by config key. `assertConsistent` checks it
 * against the configs the host composes, so a new group cannot ship without its metadata.
 */
export const TOOL_CONFIG_METAS = {
  filesystem: {
    title: 'Files',
    description: 'List, read, write, edit and search files in the workspace.',
    category: 'workspace',
  },
  shell: {
    title: 'Shell',
    description: 'Run commands in the workspace, with live output and a bounded view for the model.',
    category: 'execution',
  },
  interaction: {
    title: 'Ask the user',
    description: 'Ask the person a question or for confirmation before a risky step.',
    category: 'interaction',
  },
  tool_search: {
    title: 'Tool search',
    description: 'Find deferred tools (for example from MCP servers) and load their schemas.',
    category: 'discovery',
  },
  skills: {
    title: 'Skills',
    description: 'Read the full procedure and reference files of a skill.',
    category: 'discovery',
  },
  tool_results: {
    title: 'Earlier results',
    description: 'Recover the raw output of a compacted tool call, in pages.',
    category: 'context',
  },
} as const satisfies Record<string, ToolConfigMeta>;

/** The key of a built-in config. */
export type BuiltInConfigKey = keyof typeof TOOL_CONFIG_METAS;

/** Every built-in tool name → the key of the config that yields it. */
export const TOOL_NAME_MAP = {
  ls: 'filesystem',
  read_file: 'filesystem',
  write_file: 'filesystem',
  edit_file: 'filesystem',
  glob: 'filesystem',
  grep: 'filesystem',
  execute: 'shell',
  ask_user_question: 'interaction',
  confirm: 'interaction',
  tool_search: 'tool_search',
  view_skill: 'skills',
  view_tool_call: 'tool_results',
} as const satisfies Record<string, BuiltInConfigKey>;
