import { resolve } from 'node:path';
import type { LanguageModel, PrepareStepFunction, ToolCallRepairFunction, ToolSet } from 'ai';
import {
  createCompactor,
  createTokenCounter,
  dataDirInWorkspace,
  defaultDataDir,
  makeFolders,
  rebuildContext,
} from '@aibuddy/compactor';
import type { CompactionEvent, TaskStore } from '@aibuddy/compactor';
import { chooseDeferPath, createDeferredTools, deferredServerNotes, toolSearchPresentation } from '@aibuddy/defer';
import {
  connectMcpServers,
  createRunActiveSet,
  decideDeferral,
  loadMcpConfig,
  parseMcpConfig,
  staticCatalog,
} from '@aibuddy/discovery';
import type { McpManager, ToolSearchWarning } from '@aibuddy/discovery';
import { assertConsistent, resolveToolSet, TOOL_CONFIG_METAS, TOOL_NAME_MAP } from '@aibuddy/registry';
import type { ServerToolConfig, ToolConfigMeta, ToolServices } from '@aibuddy/registry';
import { createAiTools, createConfirmationGate, createEventOrder } from '@aibuddy/runtime';
import type { RuntimeEvent, RuntimeHooks } from '@aibuddy/runtime';
import { createNodeSandbox } from '@aibuddy/sandbox-node';
import type { NodeSandbox } from '@aibuddy/sandbox-node';
import type { AllowRule } from '@aibuddy/tools-shell';
import type { DeferPathOption } from './args.js';
import { builtInConfigs } from './built-in-configs.js';
import type { HostConfirmation } from './confirmation.js';
import type { ModelInfo } from './create-model.js';
import type { HostEmbeddingModel } from './embedding-model.js';
import { AgentStartupError } from './errors.js';
import type { AgentEventSink } from './events.js';
import { buildSystemPrompt } from './system-prompt.js';
import { toolsReport } from './tools-report.js';
import type { ToolsReport } from './tools-report.js';

export type { ToolsReport } from './tools-report.js';

/** Options of {@link composeAgent}. */
export interface ComposeAgentOptions {
  /** The workspace root (created when missing). */
  workspace: string;
  /** The model (see `createModel`). */
  model: ModelInfo;
  /** An `mcpServers` config file path, or the parsed object. */
  mcpConfig?: string | { mcpServers: Record<string, unknown> };
  /**
   * How long composition waits for MCP servers to come up (default {@link DEFAULT_MCP_START_WAIT_MS}).
   * Servers still starting then join the run when they are ready, and `tool_search` names them
   * meanwhile; a server that fails later is reported through `onWarning`. `Infinity` waits for every
   * server (the `tools` command does, since it lists them).
   */
  mcpStartWaitMs?: number;
  /** A folder of skills. */
  skillsDir?: string;
  /** The task (run) id. */
  taskId: string;
  /** The data folder (default outside the workspace: see `defaultDataDir`). */
  dataDir?: string;
  /** Capabilities granted to the task (`--capability`): groups that require one are excluded without it. */
  capabilities?: readonly string[];
  /** More runtime hooks (the host's call recorder), run after the compactor's. */
  hooks?: readonly RuntimeHooks[];
  /** The task store: `view_tool_call` then also reads calls saved raw. */
  taskStore?: TaskStore;
  /** `--defer-path` (default `auto`). */
  deferPath?: DeferPathOption;
  /**
   * An embedding model for `tool_search` (opt-in, e.g. `openai.embedding('text-embedding-3-small')`):
   * semantic similarity fused with the lexical ranking; tool vectors are cached in the data folder.
   */
  embeddingModel?: HostEmbeddingModel | undefined;
  /**
   * Allow rules of `execute` (see `loadHostCommandRules`). Without them only commands proven
   * harmless run without confirmation.
   */
  allow?: readonly AllowRule[];
  /** How confirmation requests are answered. */
  confirmation: HostConfirmation;
  /**
   * Receives every event of the run for a log: a `tool-result` is delivered once its model view is
   * final (exactly what the model is sent), followed by its `compaction`, if any.
   */
  onEvent?: AgentEventSink;
  /** Receives every event as it happens, for a display (a `tool-result` at once, with the tool's view). */
  onLiveEvent?: AgentEventSink;
  /** Heartbeat period of long tool calls (default 30 s). */
  heartbeatIntervalMs?: number;
  /** Stops every tool call and background job of the run. */
  signal?: AbortSignal;
  /** Problems that do not stop the run (an MCP server that failed to start), as sentences. */
  onWarning?: (message: string) => void;
  /**
   * Tool groups of another host, composed after the built-in ones. Each needs its metadata in
   * `extraMetas` and its tool names in `extraNameMap`; `assertConsistent` refuses to start otherwise.
   */
  extraConfigs?: readonly ServerToolConfig[];
  /**
   * The model that writes `summary` compactions (none of the built-in tools asks for one). Without it,
   * `summary` falls back to trimming; the CLI injects none, so a scripted run never spends a step on it.
   */
  summaryModel?: LanguageModel;
  /** Metadata of `extraConfigs`, by config key. */
  extraMetas?: Readonly<Record<string, ToolConfigMeta>>;
  /** Tool name → config key for `extraConfigs`. */
  extraNameMap?: Readonly<Record<string, string>>;
}

/** A composed agent: AI SDK call settings plus what the host prints and closes. */
export interface ComposedAgent {
  /** The model info. */
  model: ModelInfo;
  /** The task id. */
  taskId: string;
  /** The workspace root. */
  workspace: string;
  /** The data folder. */
  dataDir: string;
  /**
   * The system prompt of the first step. When the MCP catalogue changes mid-run (servers that came up
   * late, `tools/list_changed`, a server lost), `callSettings.prepareStep` sends the rebuilt one from the
   * next step, with the run notes of the groups present then.
   */
  system: string;
  /** Spread into `streamText` / `generateText`. */
  callSettings: {
    tools: ToolSet;
    activeTools?: string[];
    prepareStep?: PrepareStepFunction<ToolSet>;
    experimental_repairToolCall?: ToolCallRepairFunction<ToolSet>;
  };
  /** The resolved tool set as the model sees it (at composition: servers still starting are not in it). */
  report: ToolsReport;
  /** MCP servers still in their first start (their tools join the run when they are up). */
  mcpStarting(): string[];
  /** Resolves when every MCP server's first start has settled (ready or failed); at once without MCP. */
  whenMcpStarted(): Promise<void>;
  /** Releases everything (MCP connections, sandbox processes, background compaction). */
  close(): Promise<void>;
}

/**
 * How long a run waits for its MCP servers before the first step. Servers usually start in well under
 * a second, so a config of a few servers is complete by then; a host with hundreds of them (about
 * 0.25 s of CPU each) would otherwise wait a minute before the model is first asked, and one slow
 * server would hold up every run by up to its start-up timeout (30 s).
 */
export const DEFAULT_MCP_START_WAIT_MS = 10_000;

/**
 * Composes the packages into one agent for a run: checks the registry's consistency (refusing to
 * start on a mismatch), opens the sandbox at the workspace, connects MCP servers, resolves the tool
 * groups, applies the gate's decision and the defer path for the model, and wires the compactor and
 * the confirmation gate. The host adds no policy: every decision is the packages' own.
 */
export async function composeAgent(options: ComposeAgentOptions): Promise<ComposedAgent> {
  const workspace = resolve(options.workspace);
  const dataDir = resolve(options.dataDir ?? defaultDataDir(workspace));
  const router = createEventOrder<CompactionEvent>({
    ...(options.onLiveEvent ? { live: options.onLiveEvent } : {}),
    ...(options.onEvent ? { log: options.onEvent } : {}),
  });
  const warn = (message: string) => options.onWarning?.(message);
  const closers: Array<() => Promise<void> | void> = [];
  const close = async () => {
    for (const c of closers.splice(0).reverse()) {
      try {
        await c();
      } catch {
        // Closing is best effort; a failed close must not hide the run's own result.
      }
    }
  };

  try {
    // Both throw McpConfigError (stage discovery) naming the problem and the fix.
    const source = options.mcpConfig;
    const mcpConfig =
      source === undefined
        ? undefined
        : typeof source === 'string'
          ? await loadMcpConfig(source)
          : parseMcpConfig(source, 'the inline MCP config');
    for (const w of mcpConfig?.warnings ?? []) warn(`[discovery] MCP config: ${w}`);

    try {
      await makeFolders(workspace, 0o755);
    } catch (error) {
      throw new AgentStartupError('execution', `cannot create the workspace ${workspace} (${(error as Error).message}).`, {
        fix: 'pass --workspace with a folder you can write to.',
        cause: error,
      });
    }

    let sandbox: NodeSandbox;
    try {
      sandbox = await createNodeSandbox({ type: 'node', root: workspace });
    } catch (error) {
      throw new AgentStartupError(
        'execution',
        `the node sandbox could not be opened at ${workspace}: ${(error as Error).message}`,
        {
          fix: 'check that the workspace is a folder you can read and write.',
          cause: error,
        },
      );
    }
    closers.push(() => sandbox.close?.());

    const deferModel = { provider: options.model.provider, modelId: options.model.modelId, baseURL: options.model.baseUrl };
    const deferOverride = options.deferPath ?? 'auto';
    const deferPath = chooseDeferPath({ ...deferModel, override: deferOverride }).path;
    // The compactor's token counter, warmed up while the MCP servers' processes boot (the immediate
    // runs once their spawns are issued): the encoder's one-time costs then fall in start-up, not in
    // the first model steps. Freed after the compactor closes (closers run in reverse).
    const tokenCounter = createTokenCounter();
    closers.push(() => tokenCounter.free());
    if (mcpConfig) setImmediate(() => tokenCounter.warmUp());
    else tokenCounter.warmUp();
    const mcp: McpManager | undefined = mcpConfig
      ? await connectMcpServers(mcpConfig, {
          waitForServersMs: options.mcpStartWaitMs ?? DEFAULT_MCP_START_WAIT_MS,
          deferredServerNotes: deferredServerNotes(deferPath),
        })
      : undefined;
    if (mcp) closers.push(() => mcp.close());
    const warnFailure = (server: string, error: { message: string }) =>
      warn(
        `${error.message}\n  Fix: check the "${server}" entry of the MCP config (command, args, env); the run goes on without its tools.`,
      );
    for (const failure of mcp?.failures() ?? []) warnFailure(failure.server, failure.error);
    // Servers still starting, or lost for good mid-run, fail later: reported when it happens.
    const unsubscribe = mcp?.subscribe((event) => {
      if (event.type === 'server-failed') warnFailure(event.server, event.error);
    });
    if (unsubscribe) closers.push(() => void unsubscribe());

    // A data folder inside the workspace is protected like .git: the agent must not rewrite its own records.
    const dataRel = dataDirInWorkspace(dataDir, workspace);
    const protectedPaths = dataRel === undefined ? [] : [dataRel];
    const configs = builtInConfigs({
      allow: options.allow,
      protectedPaths,
      catalog: mcp ?? staticCatalog([]),
      toolSearchPresentation: toolSearchPresentation(deferPath),
      ...(options.embeddingModel
        ? {
            toolSearchEmbedding: {
              embeddingModel: options.embeddingModel,
              cacheDir: dataDir,
              onWarning: (w: ToolSearchWarning) => warn(`[discovery] tool_search: ${w.message}`),
            },
          }
        : {}),
      skillsDir: options.skillsDir,
      onSkillProblems: (problems) => warn(`[discovery] skills: ${problems.map((p) => JSON.stringify(p)).join('; ')}`),
    });
    const mcpConfigs = [...(options.extraConfigs ?? []), ...(mcp?.toolConfigs() ?? [])];
    // Refuses to start on any mismatch, listing every problem (RegistryConsistencyError).
    assertConsistent({
      configs: [...configs, ...mcpConfigs],
      metas: { ...TOOL_CONFIG_METAS, ...options.extraMetas, ...(mcp?.configMetas() ?? {}) },
      nameMap: { ...TOOL_NAME_MAP, ...options.extraNameMap, ...(mcp?.nameMap() ?? {}) },
    });

    const compactor = createCompactor({
      dataDir,
      tokenCounter,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.summaryModel ? { summaryModel: options.summaryModel } : {}),
      onCompaction: (event) => router.followUp(event),
      onWarning: (error) => warn(`[projection] compaction: ${error.message}`),
      ...(options.taskStore ? { taskStore: options.taskStore } : {}),
    });
    closers.push(() => compactor.close());

    const gate = createConfirmationGate({
      policy: options.confirmation.policy,
      ...(options.confirmation.ask ? { ask: options.confirmation.ask } : {}),
      ...(options.confirmation.answerQuestion ? { answerQuestion: options.confirmation.answerQuestion } : {}),
    });

    const decision = mcp?.decision() ?? decideDeferral([]);
    const activeSet = createRunActiveSet({ core: Object.keys(TOOL_NAME_MAP), decision, mcp });

    const services: ToolServices = {
      sandbox,
      compactor,
      activeSet,
      ...(gate.interaction ? { interaction: gate.interaction } : {}),
    };
    const task = { id: options.taskId, ...(options.capabilities ? { capabilities: options.capabilities } : {}) };
    const resolved = await resolveToolSet({ configs: [...configs, ...mcpConfigs], services, task });
    activeSet.update({ core: resolved.tools.filter((t) => t.core).map((t) => t.definition.name) });

    const runtimeOptions = {
      services,
      taskId: options.taskId,
      onEvent: (event: RuntimeEvent) => router.runtime(event),
      hooks: [compactor.hooks, ...(options.hooks ?? [])],
      confirmation: gate,
      ...(options.heartbeatIntervalMs !== undefined ? { heartbeatIntervalMs: options.heartbeatIntervalMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    const tools = createAiTools(resolved, runtimeOptions);
    let definitions = new Map(resolved.tools.map((t) => [t.definition.name, t.definition]));
    // The tool map follows the MCP servers by itself: when the catalogue changed (tools/list_changed,
    // a server lost or back), the next step resolves the groups again and defer presents the new set.
    let builtVersion = mcp?.version;
    // The run notes follow the catalogue too: a server that came up late brings its instructions, one
    // that went away takes them along, and tool_search's note stops naming servers that have started.
    // Sent from the step after the change (the tool list changes then anyway, so a prompt cache is
    // lost either way); unchanged text keeps the first prompt.
    const firstSystem = buildSystemPrompt({ workspace, instructions: resolved.instructions });
    let system = firstSystem;
    const refresh = mcp
      ? async () => {
          if (mcp.version === builtVersion) return undefined;
          builtVersion = mcp.version;
          const again = await resolveToolSet({ configs: [...configs, ...mcpConfigs], services, task });
          definitions = new Map(again.tools.map((t) => [t.definition.name, t.definition]));
          system = buildSystemPrompt({ workspace, instructions: again.instructions });
          return { tools: createAiTools(again, runtimeOptions), decision: mcp.decision() };
        }
      : undefined;

    // The compactor rebuilds the history before each step (compact forms with their pointers,
    // normalized confirmations, repaired interrupted calls); defer then sets the offered tools.
    const rebuild: PrepareStepFunction<ToolSet> = async ({ messages }) => ({
      messages: await rebuildContext(messages, {
        compactor,
        taskId: options.taskId,
        tools: (name: string) => definitions.get(name),
        ...(options.signal ? { signal: options.signal } : {}),
      }),
      // A step's system override lasts that step only: given on every step once the notes changed.
      ...(system !== firstSystem ? { system } : {}),
    });
    const deferred = createDeferredTools({
      tools,
      decision,
      model: deferModel,
      override: deferOverride,
      activeSet,
      prepareStep: rebuild,
      refresh,
    });
    for (const w of deferred.warnings) warn(`[discovery] ${w}`);

    const report = toolsReport({
      deferred,
      decision,
      // MCP tools left out for their input schema are reported beside the excluded groups.
      excluded: [
        ...resolved.excluded,
        ...(mcp?.excludedTools() ?? []).map((t) => ({ key: `mcp:${t.server}/${t.tool}`, reason: t.reason })),
      ],
      serverOf: new Map((mcp?.tools() ?? []).map((t) => [t.name, t.server])),
      allow: options.allow ?? [],
      protectedPaths,
      isolation: sandbox.describe(),
    });

    const callSettings: ComposedAgent['callSettings'] = {
      tools: deferred.callSettings.tools,
      ...(deferred.callSettings.activeTools ? { activeTools: deferred.callSettings.activeTools } : {}),
      prepareStep: deferred.callSettings.prepareStep,
      experimental_repairToolCall: deferred.callSettings.experimental_repairToolCall,
    };

    return {
      model: options.model,
      taskId: options.taskId,
      workspace,
      dataDir,
      system: firstSystem,
      callSettings,
      report,
      mcpStarting: () => mcp?.starting() ?? [],
      whenMcpStarted: () => mcp?.whenStarted() ?? Promise.resolve(),
      close: async () => {
        // Background compactions finish (or are cancelled by the stop) before the data dir is left.
        if (!options.signal?.aborted) await compactor.whenIdle().catch(() => undefined);
        await close();
        router.flush();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}
