import { NoSuchToolError } from 'ai';
import type { PrepareStepFunction, Tool, ToolCallRepairFunction, ToolSet } from 'ai';
import { createActiveSet, TOOL_SEARCH_TOOL_NAME, toolNamesInHistory } from '@aibuddy/discovery';
import type { ActiveSet, DeferralDecision, HistoryMessage } from '@aibuddy/discovery';
import { ToolError } from '@aibuddy/registry';
import { activeToolMap } from './active-tool-map.js';
import { chooseDeferPath } from './choose-defer-path.js';
import type { DeferModelInfo, DeferPath, DeferPathOverride } from './choose-defer-path.js';
import { createStepObserver } from './step-observer.js';
import { anthropicSearchTool, openaiSearchTool } from './provider-tools.js';

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
   * deferred), from `createAiTools`. When tools are deferred it must hold `tool_search`: the one of
   * `@aibuddy/discovery` (`createToolSearchConfig`, with `presentation: toolSearchPresentation(path)`),
   * run through the runtime like every tool, so its events, validation and stages are the runtime's.
   */
  tools: ToolSet;
  /** The gate's decision (`decideDeferral` from `@aibuddy/discovery`). Tools it does not name count as core. */
  decision: Pick<DeferralDecision, 'direct' | 'deferred'> & Partial<Pick<DeferralDecision, 'servers' | 'starting'>>;
  /** The model in use. */
  model: DeferModelInfo;
  /** `auto` (default), `native` or `active-tools`. */
  override?: DeferPathOverride | undefined;
  /**
   * The run's active set (`createActiveSet` from `@aibuddy/discovery`), shared with the host's
   * `tool_search`. Default: a new one over this decision.
   */
  activeSet?: ActiveSet | undefined;
  /** Which search tool the Anthropic native path uses (default `client`; see the README for why). */
  anthropicToolSearch?: AnthropicToolSearchKind | undefined;
  /** Descriptions of MCP servers for OpenAI tool namespaces (default: a generic sentence). */
  serverDescriptions?: Readonly<Record<string, string>> | undefined;
  /** A repair function of the host, tried for the calls this package does not handle. */
  repairToolCall?: ToolCallRepairFunction<ToolSet> | undefined;
  /**
   * Called before each step: returns the new tool map and decision when the catalogue changed (an MCP
   * server's `tools/list_changed`, a server that came back), or `undefined` when nothing changed (it
   * must cost O(1) then: compare a version number). The presentation is rebuilt from them and the
   * discoveries of the active set are kept, so the host's tool map follows the servers by itself.
   */
  refresh?: (() => Promise<RefreshedTools | undefined> | RefreshedTools | undefined) | undefined;
  /**
   * A `prepareStep` of the host (for example the compactor's, which rebuilds the messages). It runs
   * first; its result is kept, and on the `activeTools` path `activeTools` is set from the active set
   * (intersected with the host's own `activeTools` when it returns one).
   */
  prepareStep?: PrepareStepFunction<ToolSet> | undefined;
}

/** What {@link CreateDeferredToolsOptions.refresh} returns after a catalogue change. */
export interface RefreshedTools {
  /** Every tool of the run again (as `tools`). */
  tools: ToolSet;
  /** The gate's new decision. */
  decision: CreateDeferredToolsOptions['decision'];
}

/** The AI SDK call settings: spread them into `generateText`, `streamText` or a `ToolLoopAgent`. */
export interface DeferredCallSettings {
  /**
   * Every tool (plus the search tool), each reachable by name. On the `activeTools` path the map
   * enumerates only the tools offered now, so that the SDK's per-step scans of `tools` cost
   * O(active tools) instead of O(catalogue); a lookup by name still finds any tool.
   */
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
  const merged: Record<string, Record<string, unknown>> = {
    ...((t.providerOptions ?? {}) as Record<string, Record<string, unknown>>),
  };
  for (const [provider, value] of Object.entries(options)) merged[provider] = { ...(merged[provider] ?? {}), ...value };
  return { ...t, providerOptions: merged } as Tool;
}

/**
 * How discovery's `tool_search` must present its results on a path (`createToolSearchConfig`'s
 * `presentation`): `tool_reference` blocks on the Anthropic native path, full schemas elsewhere.
 */
export function toolSearchPresentation(path: DeferPath): 'schemas' | 'tool-reference' {
  return path === 'anthropic-native' ? 'tool-reference' : 'schemas';
}

/**
 * Where a deferred MCP server's usage notes go on a path (`connectMcpServers`' `deferredServerNotes`):
 * with its tools in `tool_search` results on the `activeTools` path, where our own search answers the
 * model in text; in the run notes on native paths. There the provider expands the definitions
 * (OpenAI runs the search itself, so our results never reach the model) or our result is sent as
 * `tool_reference` blocks (Anthropic), beside which the API documents no text.
 */
export function deferredServerNotes(path: DeferPath): 'instructions' | 'tool-search' {
  return path === 'active-tools' ? 'tool-search' : 'instructions';
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
  const first = buildDeferredTools(options);
  return options.refresh ? followCatalogue(first, options, options.refresh) : first;
}

/**
 * Wraps a presentation so that it follows catalogue changes: the tool map is one stable object (the
 * SDK keeps the reference for the whole run) that delegates to the presentation of the current
 * catalogue, rebuilt in `prepareStep` when `refresh` reports a change.
 */
function followCatalogue(
  first: DeferredTools,
  options: CreateDeferredToolsOptions,
  refresh: NonNullable<CreateDeferredToolsOptions['refresh']>,
): DeferredTools {
  let current = first;
  const warnings = [...first.warnings];
  const map = () => current.callSettings.tools;
  const tools = new Proxy(Object.create(null) as ToolSet, {
    get: (_target, name) => Reflect.get(map(), name),
    has: (_target, name) => Reflect.has(map(), name),
    ownKeys: () => Reflect.ownKeys(map()),
    getOwnPropertyDescriptor: (_target, name) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(map(), name);
      return descriptor ? { ...descriptor, configurable: true } : undefined;
    },
  });
  const prepareStep: PrepareStepFunction<ToolSet> = async (args) => {
    const next = await refresh();
    if (next) {
      // The set keeps its discoveries of tools that are still deferred.
      first.activeSet.update({ direct: next.decision.direct, deferred: next.decision.deferred.map((d) => d.name) });
      try {
        current = buildDeferredTools({ ...options, tools: next.tools, decision: next.decision, activeSet: first.activeSet });
        warnings.push(...current.warnings);
      } catch (error) {
        // A catalogue that cannot be presented (no tool_search for newly deferred tools) keeps the last one.
        warnings.push(`the changed tool catalogue could not be presented (${(error as Error).message}); the previous one stays`);
      }
    }
    return current.callSettings.prepareStep(args);
  };
  return {
    get path() {
      return current.path;
    },
    get reason() {
      return current.reason;
    },
    callSettings: {
      tools,
      activeTools: first.callSettings.activeTools,
      prepareStep,
      experimental_repairToolCall: (args) => current.callSettings.experimental_repairToolCall(args),
    },
    toolSearchName: first.toolSearchName,
    get deferred() {
      return current.deferred;
    },
    activeSet: first.activeSet,
    offeredToolNames: () => current.offeredToolNames(),
    loadedToolNames: () => current.loadedToolNames(),
    warnings,
  };
}

function buildDeferredTools(options: CreateDeferredToolsOptions): DeferredTools {
  const choice = chooseDeferPath({ ...options.model, override: options.override });
  const warnings: string[] = [];
  const toolSearchName = TOOL_SEARCH_TOOL_NAME;

  // Copied with their descriptors, not spread: `createAiTools` builds each tool at its first lookup,
  // and a spread would build the whole catalogue here.
  const input: ToolSet = copyToolMap(options.tools);
  const toolSearch = input[toolSearchName];
  delete input[toolSearchName];

  const deferredNames: string[] = [];
  const serverOfDeferred = new Map<string, string>();
  for (const d of options.decision.deferred) {
    if (!Object.hasOwn(input, d.name)) {
      warnings.push(`deferred tool "${d.name}" (server "${d.server}") is not in the tool set; ignored`);
      continue;
    }
    deferredNames.push(d.name);
    serverOfDeferred.set(d.name, d.server);
  }
  const direct = options.decision.direct.filter((name) => {
    if (Object.hasOwn(input, name)) return true;
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
    const unknown: string[] = [];
    const known = new Set(options.activeSet.deferred());
    for (const n of deferredNames) if (!known.has(n)) unknown.push(n);
    if (unknown.length > 0) {
      warnings.push(
        `the active set does not list ${unknown.length} deferred tool(s) (${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? ', ...' : ''}): they can never become active; build it from the same decision`,
      );
    }
  }
  const anthropicKind = options.anthropicToolSearch ?? 'client';
  const needsClientSearch =
    hasDeferred && (choice.path === 'active-tools' || (choice.path === 'anthropic-native' && anthropicKind === 'client'));
  if (needsClientSearch && !toolSearch) {
    throw new ToolError(`${deferredNames.length} tools are deferred but the tool set has no ${toolSearchName}.`, {
      stage: 'discovery',
      toolName: toolSearchName,
      retryable: false,
      hint:
        `Add createToolSearchConfig({ catalog, presentation: toolSearchPresentation(path) }) from @aibuddy/discovery to the configs ` +
        'you resolve and turn into tools with createAiTools, so the search runs through the runtime like every tool.',
    });
  }

  // Every search result (ours through the runtime, or a provider's) marks what it found in the run's
  // active set, even when the host's tool_search marks another set; read once per new step.
  const observeSteps = createStepObserver(toolSearchName, deferredSet, activeSet);

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
          hint: foundAlready
            ? 'Call it again now.'
            : `Call ${toolSearchName} first (for example with its name as the query); it can be called from the step after.`,
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
    // Nothing deferred: the tools go as they are, on every path, with no search tool, unless servers
    // are still starting: their tools will most likely be deferred, and the search says they are coming.
    const toolsToCome = (options.decision.starting?.length ?? 0) > 0;
    tools = toolSearch && toolsToCome ? { ...input, [toolSearchName]: toolSearch } : input;
    activeTools = undefined;
    prepareStep = none;
    offeredToolNames = () => Object.keys(tools);
  } else if (choice.path === 'anthropic-native') {
    // Built once per catalogue: the array never changes, so prompt caching holds.
    tools = {};
    for (const name of loadedNames) tools[name] = input[name]!;
    tools[toolSearchName] =
      anthropicKind === 'bm25' || anthropicKind === 'regex' ? anthropicSearchTool(anthropicKind) : toolSearch!;
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
        openai: {
          namespace: { name: server.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64), description },
          ...(deferredSet.has(name) ? { deferLoading: true } : {}),
        },
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
    const all: ToolSet = copyToolMap(input);
    all[toolSearchName] = toolSearch!;
    const fixed = [...loadedNames, toolSearchName];
    // Direct tools stay offered by the gate's decision; deferred ones once the active set holds them
    // (which also drops the tools of a server that went away). O(active tools): only discoveries are read.
    const current = () => {
      const out = [...fixed];
      for (const n of activeSet.discovered()) if (deferredSet.has(n) && activeSet.has(n)) out.push(n);
      return out;
    };
    tools = activeToolMap(all, current);
    activeTools = current();
    prepareStep = async (args) => {
      const host = hostPrepareStep ? await hostPrepareStep(args) : undefined;
      // A new run starts from a history: deferred tools referenced by what survived compaction are
      // active again (added to, never replacing, what the host's set already holds).
      if (args.stepNumber === 0) {
        const messages = (host?.messages ?? args.messages) as HistoryMessage[];
        activeSet.markDiscovered([...toolNamesInHistory(messages)].filter((n) => deferredSet.has(n)));
      }
      observeSteps(args.steps as never);
      const ours = current();
      const hostActive = host?.activeTools as string[] | undefined;
      if (!hostActive) return { ...host, activeTools: ours };
      const allowed = new Set(hostActive);
      return { ...host, activeTools: ours.filter((n) => allowed.has(n)) };
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
        ? [
            ...loadedNames,
            toolSearchName,
            ...activeSet.discovered().filter((n) => deferredSet.has(n) && (choice.path !== 'active-tools' || activeSet.has(n))),
          ]
        : Object.keys(tools),
    warnings,
  };
}

/** A copy of a tool map that leaves lazily built tools unbuilt (their accessors are copied). */
function copyToolMap(tools: ToolSet): ToolSet {
  return Object.defineProperties({} as ToolSet, Object.getOwnPropertyDescriptors(tools));
}
