export { decideDeferral, MCP_SERVER_DEFER_THRESHOLD, MCP_TOTAL_DEFER_THRESHOLD } from './gate.js';
export type { DeferralDecision, GateOptions, GateServerInput, ServerDeferral } from './gate.js';

export { createToolIndex, DEFAULT_TUNING, MAX_REGEX_LENGTH, ToolSearchQueryError, WARM_UP_SEARCHES } from './search/index.js';
export type {
  ToolIndex,
  ToolIndexEntry,
  ToolIndexOptions,
  ToolIndexTuning,
  ToolSearchHit,
  ToolSearchOptions,
  ToolSearchWarning,
} from './search/index.js';

export { McpConfigError, McpServerStartError } from './errors.js';
export { DEFAULT_STARTUP_TIMEOUT_MS, loadMcpConfig, MAX_CONFIG_BYTES, parseMcpConfig } from './mcp/config.js';
export type { McpConfig, McpHttpServerConfig, McpServerConfig, McpServerOptions, McpStdioServerConfig } from './mcp/config.js';
export { MCP_NAME_SEPARATOR, namespaceToolName, uniqueToolName } from './mcp/tool-names.js';
export { MAX_MCP_SCHEMA_DEPTH, MAX_MCP_SCHEMA_NODES, mcpSchemaProblem } from './mcp/mcp-input-schema.js';
export { createMcpInputCheck, createMcpInputValidator } from './mcp/mcp-input-check.js';
export { IN_THREAD_CHECK_BUDGET, MCP_SCHEMA_CHECK_TIMEOUT_MS } from './mcp/bounded-schema-check.js';
export { createMcpOutputCheck, readMcpOutputSchema } from './mcp/mcp-output-schema.js';
export { isDestructiveMcpTool, MCP_CONFIRM_MODES, mcpCallImpact, mcpCallNeedsConfirmation } from './mcp/mcp-confirmation.js';
export type { McpConfirmMode, McpToolAnnotations } from './mcp/mcp-confirmation.js';
export { MCP_STDIO_MAX_MESSAGE_BYTES, ProcessGroupStdioTransport } from './mcp/process-group-transport.js';
export type { ProcessGroupTransportOptions } from './mcp/process-group-transport.js';
export { MAX_MCP_TOOL_DESCRIPTION, readToolList } from './mcp/read-tool-list.js';
export { MAX_MCP_TOOL_LIST_CHARS, MAX_MCP_TOOLS_PER_SERVER } from './mcp/list-all-tools.js';
export { fetchWithMessageLimit, MCP_HTTP_MAX_MESSAGE_BYTES, McpMessageTooLargeError } from './mcp/limited-fetch.js';
export type { McpExcludedTool } from './mcp/read-tool-list.js';
export { createMcpToolDefinition, mcpResultToModelOutput, normalizeMcpInputSchema } from './mcp/mcp-tool.js';
export type { McpCallResult, McpContentBlock, McpToolCaller, McpToolInfo } from './mcp/mcp-tool.js';
export { McpServerConnection } from './mcp/mcp-connection.js';
export type { McpConnectionSettings, McpReconnectOptions, McpServerEvent, McpServerStatus } from './mcp/mcp-connection-types.js';
export { connectMcpServers, mcpConfigKey } from './mcp/mcp-manager.js';
export type {
  ConnectMcpServersOptions,
  DeferredServerNotesPlacement,
  McpManager,
  McpServerState,
} from './mcp/mcp-manager.js';
export { defaultStartConcurrency, StartSlots } from './mcp/start-slots.js';

export { combineCatalogs, staticCatalog } from './catalog.js';
export type { CatalogTool, DeferredToolCatalog } from './catalog.js';

export { createActiveSet, namesInToolSearchOutput, toolNamesInHistory } from './active-set/active-set.js';
export type { ActiveSet, ActiveSetOptions, HistoryMessage } from './active-set/active-set.js';
export { createRunActiveSet } from './active-set/run-active-set.js';
export type { RunActiveSetOptions } from './active-set/run-active-set.js';

export { TOOL_SEARCH_CONFIG_KEY, TOOL_SEARCH_TOOL_NAME } from './tool-search/constants.js';
export {
  createToolSearchConfig,
  DEFAULT_TOOL_SEARCH_LIMIT,
  MAX_TOOL_SEARCH_LIMIT,
  parseSlashRegex,
  toolReferenceOutput,
} from './tool-search/tool-search-config.js';
export type {
  ToolSearchConfigOptions,
  ToolSearchPresentation,
  ToolSearchResult,
  ToolSearchResultTool,
} from './tool-search/tool-search-config.js';

export { loadSkills, MAX_SKILL_DESCRIPTION } from './skills/load-skills.js';
export type { LoadedSkills, Skill, SkillProblem } from './skills/load-skills.js';
export { listSkillFiles, MAX_FILE_CHARS, MAX_LISTED_FILES, readSkillFile } from './skills/skill-files.js';
export type { SkillFileContent } from './skills/skill-files.js';
export { parseFrontmatter } from './skills/frontmatter.js';
export type { ParsedSkillFile } from './skills/frontmatter.js';
export { createSkillsConfig, SKILLS_CONFIG_KEY, skillListing, VIEW_SKILL_TOOL_NAME } from './skills/skills-config.js';
export type { SkillsConfigOptions, ViewSkillResult } from './skills/skills-config.js';
