import type { ServerToolConfig } from '@aibuddy/registry';

/**
 * A config for a group this run has nothing for (for example skills without `--skills`): it yields
 * no tools, so the tool set reports the group as excluded with the reason, and `assertConsistent`
 * still sees every key.
 */
export function unconfiguredConfig(key: string, toolNames: readonly string[], reason: string): ServerToolConfig {
  return {
    key,
    toolNames,
    create: () => [],
    requires: { preconditions: [{ name: `configured:${key}`, check: () => reason }] },
  };
}
