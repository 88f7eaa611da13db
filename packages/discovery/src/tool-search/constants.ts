/** The config key of `tool_search` (as in `TOOL_CONFIG_METAS`). */
export const TOOL_SEARCH_CONFIG_KEY = 'tool_search';
/** The tool name of `tool_search` (as in `TOOL_NAME_MAP`). */
export const TOOL_SEARCH_TOOL_NAME = 'tool_search';
