import { NoSuchToolError } from 'ai';
import type { PrepareStepFunction, Tool, ToolCallRepairFunction, ToolSet } from 'ai';
import { createActiveSet, namesInToolSearchOutput, TOOL_SEARCH_TOOL_NAME, toolNamesInHistory } from '@aibuddy/discovery';
import type { ActiveSet, DeferralDecision, HistoryMessage } from '@aibuddy/discovery';
import { ToolError } from '@aibuddy/registry';
import { chooseDeferPath } from './choose-defer-path.js';
import type { DeferModelInfo, DeferPath, DeferPathOverride } from './choose-defer-path.js';
import { anthropicSearchTool, openaiSearchTool } from './provider-tools.js';
import { indexDeferredTools } from './tool-index.js';
import type { ToolSearchEngine } from './tool-index.js';
import { createToolSearchTool, DEFAULT_SEARCH_LIMIT, toolReferenceOutput } from './tool-search-tool.js';

/** Which search tool the Anthropic native path offers. */
export type AnthropicToolSearchKind =
  /** Our own `tool_search` (the discovery engine) answering with `tool_reference` blocks. Default. */
  | 'client'
  /** Anthropic's server-side BM25 search (`tool_search_tool_bm25_20251119`). */
  | 'bm25'
  /** Anthropic's server-side regex search (`tool_search_tool_regex_20251119`). */
  | 'regex';

/** Options of {@link createDeferredTools}. */
export interface CreateDeferredToolsOptions {
  /**
   * Every tool of the run as a plain AI SDK tool map (core tools and every MCP tool, direct and
   * deferred), for example from `createAiTools`. When it holds a `tool_search` (the one of
   * `@aibuddy/discovery`, through `createAiTools`), that one is used; otherwise one is created.
   */
  tools: ToolSet;
  /** The gate's decision (`decideDeferral` from `@aibuddy/discovery`). Tools it does not name count as core. */
  decision: Pick<DeferralDecision, 'direct' | 'deferred'> & Partial<Pick<DeferralDecision, 'servers'>>;
  /** The model in use. */
  model: DeferModelInfo;
  /** `auto` (default), `native` or `active-tools`. */
  override?: DeferPathOverride | undefined;
  /**
   * The run's active set (`createActiveSet` from `@aibuddy/discovery`), shared with the host's
   * `tool_search`. Default: a new one over this decision.
   */
  activeSet?: ActiveSet | undefined;
  /** The engine behind a `tool_search` created here. Default: `createToolIndex` over the deferred tools. */
  index?: ToolSearchEngine | undefined;
  /** Which search tool the Anthropic native path uses (default `client`; see the README for why). */
  anthropicToolSearch?: AnthropicToolSearchKind | undefined;
  /** Descriptions of MCP servers for OpenAI tool namespaces (default: a generic sentence). */
  serverDescriptions?: Readonly<Record<string, string>> | undefined;
  /** How many tools one search returns, for a `tool_search` created here (default 5). */
  searchLimit?: number | undefined;
  /** A repair function of the host, tried for the calls this package does not handle. */
  repairToolCall?: ToolCallRepairFunction<ToolSet> | undefined;
  /**
   * A `prepareStep` of the host (for example the compactor's, which rebuilds the messages). It runs
   * first; its result is kept, and on the `activeTools` path `activeTools` is set from the active set
   * (intersected with the host's own `activeTools` when it returns one).
   */
  prepareStep?: PrepareStepFunction<ToolSet> | undefined;
}

/** The AI SDK call settings: spread them into `generateText`, `streamText` or a `ToolLoopAgent`. */
export interface DeferredCallSettings {
  /** Every tool (plus the search tool), so any call validates. */
  tools: ToolSet;
  /** The tools offered at the first step (`activeTools` path only; `undefined` on native paths). */
  activeTools: string[] | undefined;
  /** Recomputes the offered tools from what was found (and from the history at a run's start). */
  prepareStep: PrepareStepFunction<ToolSet>;
  /** Turns a call to a known but undiscovered tool into a `discovery` error that tells the model to search. */
  experimental_repairToolCall: ToolCallRepairFunction<ToolSet>;
}

/** The result of {@link createDeferredTools}. */
export interface DeferredTools {
  /** The chosen path. */
  path: DeferPath;
  /** Why it was chosen. */
  reason: string;
  /** The call settings to spread into an AI SDK call. */
  callSettings: DeferredCallSettings;
  /** The key of the search tool in `tools` (`tool_search`). */
  toolSearchName: string;
  /** The deferred tool names (as the model sees them). */
  deferred: string[];
  /** The run's active set: what the model has found. */
  activeSet: ActiveSet;
  /**
   * The tool names the model is offered at the next step: every tool on native paths (deferred
   * ones are present but not loaded), core + direct + found + `tool_search` on the `activeTools` path.
   */
  offeredToolNames(): string[];
  /**
   * The tool names whose definitions the model is given at the next step: core + direct + found +
   * the search tool on every path (on native paths the other deferred tools are sent but not loaded).
   */
  loadedToolNames(): string[];
  /** Problems with the input that were worked around (names the decision gives but `tools` lacks). */
  warnings: string[];
}

function serverOf(name: string, servers: readonly string[]): string | undefined {
  // Namespaced names are `server__tool`; the longest matching server name wins.
  let best: string | undefined;
  for (const s of servers) if (name.startsWith(`${s}__`) && (best === undefined || s.length > best.length)) best = s;
  return best;
}

function withProviderOptions(t: Tool, options: Record<string, Record<string, unknown>>): Tool {
  const merged: Record<string, Record<string, unknown>> = { ...((t.providerOptions ?? {}) as Record<string, Record<string, unknown>>) };
  for (const [provider, value] of Object.entries(options)) merged[provider] = { ...(merged[provider] ?? {}), ...value };
  return { ...t, providerOptions: merged } as Tool;
}

/**
 * Tool names inside a provider's search result: Anthropic's `[{ type: 'tool_reference', toolName }]`,
 * OpenAI's `{ tools: [namespace | function definitions] }`, or our `{ tools: [{ name }] }`.
 */
export function namesInProviderSearchResult(value: unknown): string[] {
  const names: string[] = [];
  const visit = (v: unknown, depth: number) => {
    if (depth > 4 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const item of v) visit(item, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    if (typeof o.toolName === 'string') names.push(o.toolName);
    else if (typeof o.name === 'string' && o.type !== 'namespace') names.push(o.name);
    if (Array.isArray(o.tools)) visit(o.tools, depth + 1);
  };
  visit(value, 0);
  return names;
}

/**
 * Presents a deferral decision to the model in use. Chooses the path ({@link chooseDeferPath}) and
 * returns the AI SDK call settings for it:
 *
 * - `anthropic-native`: every tool stays in `tools` (the array never changes, so prompt caching
 *   holds); deferred tools carry `providerOptions.anthropic.deferLoading`; a search tool is added.
 * - `openai-native`: deferred function tools carry `providerOptions.openai.deferLoading`, every MCP
 *   tool sits in one namespace per server, and `openai.tools.toolSearch()` is added.
 * - `active-tools`: `tools` holds everything, `activeTools` offers core + direct + found +
 *   `tool_search`; what `tool_search` finds joins at the next step through `prepareStep`.
 */
export function createDeferredTools(options: CreateDeferredToolsOptions): DeferredTools {
  const choice = chooseDeferPath({ ...options.model, override: options.override });
  const warnings: string[] = [];
  const toolSearchName = TOOL_SEARCH_TOOL_NAME;

  const input: ToolSet = { ...options.tools };
  const hostToolSearch = input[toolSearchName];
  delete input[toolSearchName];

  const deferredNames: string[] = [];
  const deferredTools: ToolSet = {};
  const serverOfDeferred = new Map<string, string>();
  for (const d of options.decision.deferred) {
    const t = input[d.name];
    if (!t) {
      warnings.push(`deferred tool "${d.name}" (server "${d.server}") is not in the tool set; ignored`);
      continue;
    }
    deferredNames.push(d.name);
    deferredTools[d.name] = t;
    serverOfDeferred.set(d.name, d.server);
  }
  const direct = options.decision.direct.filter((name) => {
    if (input[name]) return true;
    warnings.push(`direct tool "${name}" is not in the tool set; ignored`);
    return false;
  });
  const deferredSet = new Set(deferredNames);
  const loadedNames = Object.keys(input).filter((n) => !deferredSet.has(n));
  const directSet = new Set(direct);
  const core = loadedNames.filter((n) => !directSet.has(n));
  const hasDeferred = deferredNames.length > 0;
  const activeSet = options.activeSet ?? createActiveSet({ core: [...core, toolSearchName], direct, deferred: deferredNames });
  if (options.activeSet) {
    const known = new Set(options.activeSet.deferred());
    const unknown = deferredNames.filter((n) => !known.has(n));
    if (unknown.length > 0) {
      warnings.push(`the active set does not list ${unknown.length} deferred tool(s) (${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? ', ...' : ''}): they can never become active; build it from the same decision`);
    }
  }

  const makeToolSearch = (presentation: 'schemas' | 'tool-reference'): Tool => {
    if (hostToolSearch) {
      if (presentation === 'schemas') return hostToolSearch;
      // The host's tool_search (discovery's) keeps its execute, events and marking; only the model's
      // view changes to tool_reference blocks, which the Anthropic API expands into definitions.
      return {
        ...hostToolSearch,
        toModelOutput: async (args: { toolCallId: string; input: unknown; output: unknown }) => {
          const base = hostToolSearch.toModelOutput ? await hostToolSearch.toModelOutput(args as never) : undefined;
          const names = namesInToolSearchOutput(args.output).filter((n) => deferredSet.has(n));
          return names.length > 0 ? toolReferenceOutput(names) : (base ?? { type: 'text', value: 'No tool matched.' });
        },
      } as Tool;
    }
    const index = options.index ?? indexDeferredTools(deferredTools, serverOfDeferred);
    return createToolSearchTool({ deferred: deferredTools, index, activeSet, presentation, limit: options.searchLimit ?? DEFAULT_SEARCH_LIMIT }) as Tool;
  };

  const observeSteps = (steps: ReadonlyArray<{ content: ReadonlyArray<{ type: string; toolName?: string; output?: unknown }> }>) => {
    // Provider-executed searches (Anthropic server-side, OpenAI hosted) report what they loaded only
    // in their results; record it so the host's active set (and `aibuddy tools`, a later run) knows.
    for (const step of steps) {
      for (const part of step.content) {
        if (part.type === 'tool-result' && part.toolName === toolSearchName) {
          const names = namesInProviderSearchResult(part.output).filter((n) => deferredSet.has(n));
          if (names.length > 0) activeSet.markDiscovered(names);
        }
      }
    }
  };

  const repair: ToolCallRepairFunction<ToolSet> = async (args) => {
    const name = args.toolCall.toolName;
    if (NoSuchToolError.isInstance(args.error) && deferredSet.has(name)) {
      const foundAlready = activeSet.discovered().includes(name);
      throw new ToolError(
        foundAlready
          ? 'this tool was found in this step and is offered from your next step.'
          : `this tool exists (server "${serverOfDeferred.get(name)}") but is not loaded yet.`,
        {
          stage: 'discovery',
          toolName: name,
          retryable: true,
          hint: foundAlready ? 'Call it again now.' : `Call ${toolSearchName} first (for example with its name as the query); it can be called from the step after.`,
        },
      );
    }
    return options.repairToolCall ? options.repairToolCall(args) : null;
  };

  let tools: ToolSet;
  let activeTools: string[] | undefined;
  let prepareStep: PrepareStepFunction<ToolSet>;
  let offeredToolNames: () => string[];
  const hostPrepareStep = options.prepareStep;
  const none: PrepareStepFunction<ToolSet> = (args) => (hostPrepareStep ? hostPrepareStep(args) : (undefined as never));

  if (!hasDeferred) {
    // Nothing deferred: no search tool; the tools go as they are, on every path.
    tools = input;
    activeTools = undefined;
    prepareStep = none;
    offeredToolNames = () => Object.keys(tools);
  } else if (choice.path === 'anthropic-native') {
    tools = {};
    for (const name of loadedNames) tools[name] = input[name]!;
    const kind = options.anthropicToolSearch ?? 'client';
    tools[toolSearchName] =
      kind === 'bm25' || kind === 'regex' ? anthropicSearchTool(kind) : makeToolSearch('tool-reference');
    for (const name of deferredNames) tools[name] = withProviderOptions(input[name]!, { anthropic: { deferLoading: true } });
    activeTools = undefined;
    prepareStep = (args) => {
      observeSteps(args.steps as never);
      // Nothing to change: the tool array stays identical, the API loads what was referenced.
      return none(args);
    };
    offeredToolNames = () => Object.keys(tools);
  } else if (choice.path === 'openai-native') {
    tools = {};
    const servers = [...new Set([...serverOfDeferred.values(), ...(options.decision.servers ?? []).map((s) => s.server)])];
    for (const name of Object.keys(input)) {
      const server = serverOfDeferred.get(name) ?? (directSet.has(name) ? serverOf(name, servers) : undefined);
      if (server === undefined) {
        tools[name] = input[name]!;
        continue;
      }
      const description = options.serverDescriptions?.[server] ?? `Tools of the "${server}" MCP server.`;
      tools[name] = withProviderOptions(input[name]!, {
        // Namespace names follow the tool-name rule; server names from a config may not.
        openai: { namespace: { name: server.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64), description }, ...(deferredSet.has(name) ? { deferLoading: true } : {}) },
      });
    }
    tools[toolSearchName] = openaiSearchTool();
    activeTools = undefined;
    prepareStep = (args) => {
      observeSteps(args.steps as never);
      return none(args);
    };
    offeredToolNames = () => Object.keys(tools);
  } else {
    tools = { ...input, [toolSearchName]: makeToolSearch('schemas') };
    // Direct tools stay offered by the gate's decision; deferred ones once the active set holds them
    // (which also drops the tools of a server that went away).
    const current = () => [...loadedNames, toolSearchName, ...deferredNames.filter((n) => activeSet.has(n))];
    activeTools = current();
    prepareStep = async (args) => {
      const host = hostPrepareStep ? await hostPrepareStep(args) : undefined;
      // A new run starts from a history: deferred tools referenced by what survived compaction are
      // active again (added to, never replacing, what the host's set already holds).
      if (args.stepNumber === 0) {
        const messages = (host?.messages ?? args.messages) as HistoryMessage[];
        activeSet.markDiscovered([...toolNamesInHistory(messages)].filter((n) => deferredSet.has(n)));
      }
      const ours = current();
      const hostActive = host?.activeTools as string[] | undefined;
      return { ...host, activeTools: hostActive ? ours.filter((n) => hostActive.includes(n)) : ours };
    };
    offeredToolNames = current;
  }

  return {
    path: choice.path,
    reason: hasDeferred ? choice.reason : `${choice.reason} (no tool is deferred, so every tool is sent as it is)`,
    callSettings: { tools, activeTools, prepareStep, experimental_repairToolCall: repair },
    toolSearchName,
    deferred: deferredNames,
    activeSet,
    offeredToolNames,
    loadedToolNames: () =>
      hasDeferred
        ? [...loadedNames, toolSearchName, ...deferredNames.filter((n) => activeSet.discovered().includes(n) && (choice.path !== 'active-tools' || activeSet.has(n)))]
        : Object.keys(tools),
    warnings,
  };
}
