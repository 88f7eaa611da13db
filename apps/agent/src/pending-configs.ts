import type { ServerToolConfig } from '@aibuddy/registry';

/**
 * Stand-ins for groups whose package has not landed in this tree yet: each yields no tools, so the
 * tool set reports the group as excluded with the reason, and `assertConsistent` still sees every
 * key. Remove an entry as soon as its package exports its config.
 */
export function pendingConfig(key: string, toolNames: readonly string[], pkg: string): ServerToolConfig {
  return {
    key,
    toolNames,
    create: () => [],
    instructions: () => undefined,
    requires: { preconditions: [{ name: `package:${pkg}`, check: () => `${pkg} is not composed in this build yet` }] },
  };
}
