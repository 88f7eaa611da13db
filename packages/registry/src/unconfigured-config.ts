import type { ServerToolConfig } from './server-tool-config.js';

/**
 * A config for a group this run has nothing for (for example skills without a skills folder): it
 * yields no tools, so `resolveToolSet` reports the group as excluded with `reason`, and
 * `assertConsistent` still sees every key and tool name of the group.
 */
export function unconfiguredConfig(key: string, toolNames: readonly string[], reason: string): ServerToolConfig {
  return {
    key,
    toolNames,
    create: () => [],
    requires: { preconditions: [{ name: `configured:${key}`, check: () => reason }] },
  };
}
