// Test catalog: core tools plus MCP-like servers, built the way a host builds them (defineTool →
// createAiTools), with the gate's real decision.
import type { ToolSet } from 'ai';
import { defineTool, resolveToolSet } from '@aibuddy/registry';
import type { AnyToolDefinition, ResolvedTool } from '@aibuddy/registry';
import { createAiTools } from '@aibuddy/runtime';
import type { CreateAiToolsOptions } from '@aibuddy/runtime';
import { createActiveSet, createToolSearchConfig, decideDeferral, staticCatalog } from '@aibuddy/discovery';
import type { ActiveSet, DeferralDecision, ToolSearchPresentation } from '@aibuddy/discovery';
import { fixtureTool } from '@aibuddy/test-utils/tool-catalog';

// Names and descriptions come from the shared generator; the schema is this fixture's own, so
// the tests can call any tool with `{ title }`.

const NOUNS: Record<string, string> = {
  github: 'issue',
  slack: 'message',
  sentry: 'event',
  grafana: 'dashboard',
  splunk: 'report',
  jira: 'ticket',
  notion: 'page',
};

export interface CatalogOptions {
  /** Servers and how many tools each has. */
  servers: Record<string, number>;
  /** Records executed calls. */
  calls?: Array<{ name: string; input: unknown }>;
  /** Runtime options (hooks, events). */
  runtime?: Pick<CreateAiToolsOptions, 'hooks' | 'onEvent'>;
  /** How tool_search answers (default `schemas`; `tool-reference` for the Anthropic native path). */
  presentation?: ToolSearchPresentation;
}

export interface Catalog {
  tools: ToolSet;
  decision: DeferralDecision;
  core: string[];
}

function buildCatalogDefinitions(options: CatalogOptions): {
  resolved: ResolvedTool[];
  decision: DeferralDecision;
  core: string[];
} {
  const calls = options.calls ?? [];
  const resolved: ResolvedTool[] = [];
  const core = [
    defineTool({
      name: 'read_file',
      description: 'Reads a file of the workspace.',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string', description: 'Workspace-relative path.' } },
        required: ['path'],
      },
      execute: (input: unknown) => ({ content: `content of ${(input as { path: string }).path}` }),
    }),
    defineTool({
      name: 'execute',
      description: 'Runs a shell command in the workspace.',
      inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
      execute: () => ({ exitCode: 0 }),
    }),
  ];
  for (const definition of core) resolved.push({ configKey: 'core', core: true, definition });
  const gateInput = [];
  for (const [server, count] of Object.entries(options.servers)) {
    const noun = NOUNS[server] ?? 'item';
    const names: string[] = [];
    for (let i = 0; i < count; i++) {
      const generated = fixtureTool(server, i, { noun });
      const name = `${server}__${generated.name}`;
      names.push(name);
      const definition = defineTool({
        name,
        description: generated.description,
        inputSchema: {
          type: 'object',
          properties: {
            [`${noun}_id`]: { type: 'string', description: `The ${noun} id.` },
            title: { type: 'string', description: `Title of the ${noun}.` },
            body: { type: 'string', description: 'Markdown body.' },
            labels: { type: 'array', items: { type: 'string' }, description: 'Labels to apply.' },
          },
          required: ['title'],
        },
        execute: (input: unknown) => {
          calls.push({ name, input });
          return { ok: true, tool: name };
        },
      });
      resolved.push({ configKey: `mcp:${server}`, core: false, definition });
    }
    gateInput.push({ server, toolNames: names });
  }
  return { resolved, decision: decideDeferral(gateInput), core: core.map((d) => d.name) };
}

/** The deferred tools of a built catalogue, as `tool_search` searches them. */
function deferredCatalog(built: ReturnType<typeof buildCatalogDefinitions>) {
  const definitions = new Map<string, AnyToolDefinition>(built.resolved.map((r) => [r.definition.name, r.definition]));
  return staticCatalog(
    built.decision.deferred.map((d) => {
      const def = definitions.get(d.name)!;
      return { name: d.name, description: def.description, inputSchema: def.inputJsonSchema, server: d.server };
    }),
  );
}

/**
 * The catalog with `@aibuddy/discovery`'s own `tool_search` (config → createAiTools), as every host
 * wires it: the search runs through the runtime like every tool. It marks no active set of its own;
 * `createDeferredTools` reads its results back into the run's set.
 */
export function buildCatalog(options: CatalogOptions): Catalog {
  const built = buildCatalogDefinitions(options);
  const catalog = deferredCatalog(built);
  const config = createToolSearchConfig({ catalog, ...(options.presentation ? { presentation: options.presentation } : {}) });
  const search = (config.create({ services: {}, task: {} }) as AnyToolDefinition[]).map((definition) => ({
    configKey: config.key,
    core: true,
    definition,
  }));
  return {
    tools: createAiTools([...built.resolved, ...search], { heartbeatIntervalMs: 0, ...options.runtime }),
    decision: built.decision,
    core: built.core,
  };
}

/**
 * The same catalog with `@aibuddy/discovery`'s own `tool_search` (config → resolveToolSet →
 * createAiTools), sharing one active set, as the reference host wires it.
 */
export async function buildCatalogWithDiscovery(options: CatalogOptions): Promise<Catalog & { activeSet: ActiveSet }> {
  const base = buildCatalogDefinitions(options);
  const plain = { decision: base.decision, core: base.core };
  const deferredNames = plain.decision.deferred.map((d) => d.name);
  const activeSet = createActiveSet({
    core: [...plain.core, 'tool_search'],
    direct: plain.decision.direct,
    deferred: deferredNames,
  });
  const catalog = deferredCatalog(base);
  const search = await resolveToolSet({
    configs: [
      createToolSearchConfig({ catalog, activeSet, ...(options.presentation ? { presentation: options.presentation } : {}) }),
    ],
  });
  const tools = createAiTools([...base.resolved, ...search.tools], { heartbeatIntervalMs: 0, ...options.runtime });
  return { tools, decision: plain.decision, core: plain.core, activeSet };
}
