import { RegistryConsistencyError } from './errors.js';
import type { ConsistencyProblem } from './errors.js';
import type { ServerToolConfig, ToolConfigMeta } from './server-tool-config.js';

/** What `assertConsistent` compares. */
export interface ConsistencyInput {
  /** The configs the host composes. */
  configs: readonly Pick<ServerToolConfig, 'key' | 'toolNames'>[];
  /** Display metadata by config key (the shape of `TOOL_CONFIG_METAS`). */
  metas: Readonly<Record<string, ToolConfigMeta>>;
  /** Tool name → config key. */
  nameMap: Readonly<Record<string, string>>;
  /**
   * What the tables must match. `'all'` (default): `metas` and `nameMap` describe exactly `configs`,
   * so an entry without a config is an orphan — the host that composes every group checks this way.
   * `'given'`: the tables may describe more groups than `configs` (the built-in `TOOL_CONFIG_METAS`
   * and `TOOL_NAME_MAP` for a team that uses one or two groups); only entries that concern the given
   * configs are checked, and every check on those still applies.
   */
  scope?: 'all' | 'given';
}

/** Lists every mismatch between configs, metas and the name map (empty when consistent). */
export function findConsistencyProblems({ configs, metas, nameMap, scope = 'all' }: ConsistencyInput): ConsistencyProblem[] {
  const problems: ConsistencyProblem[] = [];
  const byKey = new Map<string, Pick<ServerToolConfig, 'key' | 'toolNames'>>();
  for (const config of configs) {
    if (byKey.has(config.key)) {
      problems.push({
        kind: 'duplicate-config-key',
        configKey: config.key,
        message: `config key "${config.key}" is used by two configs; give each config its own key.`,
      });
    }
    byKey.set(config.key, config);
  }
  for (const key of byKey.keys()) {
    if (!Object.hasOwn(metas, key)) {
      problems.push({
        kind: 'config-without-meta',
        configKey: key,
        message: `config "${key}" has no entry in TOOL_CONFIG_METAS; add its title, description and category.`,
      });
    }
  }
  for (const key of Object.keys(metas)) {
    if (!byKey.has(key) && scope === 'all') {
      problems.push({
        kind: 'meta-without-config',
        configKey: key,
        message: `TOOL_CONFIG_METAS has an entry "${key}" but no config has that key (orphan meta); remove it or register the config.`,
      });
    }
  }
  const owners = new Map<string, string[]>();
  for (const config of byKey.values()) {
    for (const toolName of new Set(config.toolNames)) {
      owners.set(toolName, [...(owners.get(toolName) ?? []), config.key]);
    }
  }
  for (const [toolName, keys] of owners) {
    if (keys.length > 1) {
      problems.push({
        kind: 'tool-in-several-configs',
        toolName,
        message: `tool "${toolName}" is yielded by several configs (${keys.map((k) => `"${k}"`).join(', ')}); a name belongs to one group.`,
      });
    }
    if (!Object.hasOwn(nameMap, toolName)) {
      problems.push({
        kind: 'tool-missing-from-map',
        toolName,
        configKey: keys[0],
        message: `tool "${toolName}" (config "${keys[0]}") is missing from the name map; map it to "${keys[0]}".`,
      });
    }
  }
  for (const [toolName, key] of Object.entries(nameMap)) {
    const config = byKey.get(key);
    // With a partial host, an entry for a group it does not compose is not its business, unless
    // one of its groups yields that name (then the map points it at the wrong group).
    if (!config && scope === 'given' && !owners.has(toolName)) continue;
    if (!config && scope === 'all') {
      problems.push({
        kind: 'tool-maps-to-missing-config',
        toolName,
        configKey: key,
        message: `the name map sends tool "${toolName}" to config "${key}", which does not exist.`,
      });
    } else if (!config?.toolNames.includes(toolName)) {
      const actual = owners.get(toolName);
      problems.push({
        kind: 'tool-maps-to-wrong-config',
        toolName,
        configKey: key,
        message: actual
          ? `the name map sends tool "${toolName}" to config "${key}", but it is yielded by ${actual.map((k) => `"${k}"`).join(', ')}.`
          : `the name map sends tool "${toolName}" to config "${key}", which does not yield it.`,
      });
    }
  }
  return problems;
}

/**
 * Compares configs, metas and the name map, and throws `RegistryConsistencyError` listing
 * every problem at once. Hosts call it at start-up and refuse to start when it throws.
 */
export function assertConsistent(input: ConsistencyInput): void {
  const problems = findConsistencyProblems(input);
  if (problems.length > 0) throw new RegistryConsistencyError(problems);
}
