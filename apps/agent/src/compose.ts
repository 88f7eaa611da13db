import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PrepareStepFunction, ToolCallRepairFunction, ToolSet } from 'ai';
import { createDeferredTools } from '@aibuddy/defer';
import type { DeferPath } from '@aibuddy/defer';
import { decideDeferral } from '@aibuddy/discovery';
import type { DeferralDecision } from '@aibuddy/discovery';
import { assertConsistent, resolveToolSet, TOOL_CONFIG_METAS, TOOL_NAME_MAP } from '@aibuddy/registry';
import type { ResolvedToolSet, ServerToolConfig, ToolServices } from '@aibuddy/registry';
import { createAiTools, createConfirmationGate, interactionToolConfig } from '@aibuddy/runtime';
import type { RuntimeEvent } from '@aibuddy/runtime';
import { createSandbox } from '@aibuddy/sandbox';
import type { ISandbox } from '@aibuddy/sandbox';
import { shellToolConfig } from '@aibuddy/tools-shell';
import type { DeferPathOption } from './args.js';
import type { HostConfirmation } from './confirmation.js';
import type { ModelInfo } from './create-model.js';
import { AgentStartupError } from './errors.js';
import type { AgentEvent, AgentEventSink } from './events.js';
import { pendingConfig } from './pending-configs.js';
import { buildSystemPrompt } from './system-prompt.js';

/** What `aibuddy tools --json` prints: the tool set exactly as the model sees it. */
export interface ToolsReport {
  /** The defer path in use. */
  deferPath: DeferPath;
  /** Why that path. */
  deferPathReason: string;
  /** Tools offered from the first step. */
  direct: { name: string; server?: string }[];
  /** Tools found only through `tool_search`, with the gate's reason. */
  deferred: { name: string; server: string; reason: string }[];
  /** Groups (and MCP servers) that yield nothing in this run, with the reason. */
  excluded: { key: string; reason: string }[];
}

/** Options of {@link composeAgent}. */
export interface ComposeAgentOptions {
  /** The workspace root (created when missing). */
  workspace: string;
  /** The model (see `createModel`). */
  model: ModelInfo;
  /** An `mcpServers` config file path, or the parsed object. */
  mcpConfig?: string | { mcpServers: Record<string, unknown> };
  /** A folder of skills. */
  skillsDir?: string;
  /** The task (run) id. */
  taskId: string;
  /** The data folder (default `<workspace>/.aibuddy`). */
  dataDir?: string;
  /** `--defer-path` (default `auto`). */
  deferPath?: DeferPathOption;
  /** How confirmation requests are answered. */
  confirmation: HostConfirmation;
  /** Receives every event of the run. */
  onEvent?: AgentEventSink;
  /** Heartbeat period of long tool calls (default 30 s). */
  heartbeatIntervalMs?: number;
  /** Stops every tool call and background job of the run. */
  signal?: AbortSignal;
  /** Problems that do not stop the run (an MCP server that failed to start), as sentences. */
  onWarning?: (message: string) => void;
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
  /** The system prompt. */
  system: string;
  /** Spread into `streamText` / `generateText`. */
  callSettings: {
    tools: ToolSet;
    activeTools?: string[];
    prepareStep?: PrepareStepFunction<ToolSet>;
    experimental_repairToolCall?: ToolCallRepairFunction<ToolSet>;
  };
  /** Tool names whose events come from the runtime (others are reported from the stream). */
  runtimeToolNames: ReadonlySet<string>;
  /** The resolved tool set as the model sees it. */
  report: ToolsReport;
  /** Releases everything (MCP connections, sandbox processes, background compaction). */
  close(): Promise<void>;
}

/** Every config the host composes, in the order the model sees their tools. */
export function builtInConfigs(): ServerToolConfig[] {
  return [
    pendingConfig('filesystem', ['ls', 'read_file', 'write_file', 'edit_file', 'glob', 'grep'], '@aibuddy/tools-fs'),
    shellToolConfig,
    interactionToolConfig,
    pendingConfig('tool_search', ['tool_search'], '@aibuddy/discovery'),
    pendingConfig('skills', ['view_skill'], '@aibuddy/discovery'),
    pendingConfig('tool_results', ['view_tool_call'], '@aibuddy/compactor'),
  ];
}

/**
 * Composes the packages into one agent for a run: checks the registry's consistency (refusing to
 * start on a mismatch), opens the sandbox at the workspace, resolves the tool groups, connects MCP
 * servers, applies the deferral gate and the defer path for the model, wires the compactor and the
 * confirmation gate. The host adds no policy: every decision is the packages' own.
 */
export async function composeAgent(options: ComposeAgentOptions): Promise<ComposedAgent> {
  const configs = builtInConfigs();
  assertConsistent({ configs, metas: TOOL_CONFIG_METAS, nameMap: TOOL_NAME_MAP });

  const workspace = resolve(options.workspace);
  const dataDir = resolve(options.dataDir ?? join(workspace, '.aibuddy'));
  const emit = (event: AgentEvent) => options.onEvent?.(event);
  const closers: Array<() => Promise<void> | void> = [];
  const close = async () => {
    for (const c of closers.reverse()) {
      try {
        await c();
      } catch {
        // Closing is best effort; a failed close must not hide the run's own result.
      }
    }
  };

  try {
    try {
      mkdirSync(workspace, { recursive: true });
    } catch (error) {
      throw new AgentStartupError('execution', `cannot create the workspace ${workspace} (${(error as Error).message}).`, {
        fix: 'pass --workspace with a folder you can write to.',
        cause: error,
      });
    }

    let sandbox: ISandbox | undefined;
    const excludedExtra: { key: string; reason: string }[] = [];
    try {
      sandbox = await createSandbox({ type: 'node', root: workspace });
      closers.push(() => sandbox?.close?.());
    } catch (error) {
      excludedExtra.push({ key: 'sandbox', reason: `the node sandbox is unavailable: ${(error as Error).message}` });
    }

    const gate = createConfirmationGate({
      policy: options.confirmation.policy,
      ...(options.confirmation.ask ? { ask: options.confirmation.ask } : {}),
      ...(options.confirmation.answerQuestion ? { answerQuestion: options.confirmation.answerQuestion } : {}),
    });

    const services: ToolServices = {
      ...(sandbox ? { sandbox } : {}),
      ...(gate.interaction ? { interaction: gate.interaction } : {}),
    };
    const resolved: ResolvedToolSet = await resolveToolSet({ configs, services, task: { id: options.taskId } });

    const tools = createAiTools(resolved, {
      services,
      taskId: options.taskId,
      onEvent: (event: RuntimeEvent) => emit(event),
      confirmation: gate,
      ...(options.heartbeatIntervalMs !== undefined ? { heartbeatIntervalMs: options.heartbeatIntervalMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const runtimeToolNames = new Set(Object.keys(tools));

    const decision: DeferralDecision = decideDeferral([]);
    const deferred = createDeferredTools({
      tools,
      decision,
      model: { provider: options.model.provider, modelId: options.model.modelId, baseURL: options.model.baseUrl },
      override: options.deferPath ?? 'auto',
    });

    const report: ToolsReport = {
      deferPath: deferred.path,
      deferPathReason: deferred.reason,
      direct: deferred.offeredToolNames().map((name) => ({ name })),
      deferred: decision.deferred.map((d) => ({ name: d.name, server: d.server, reason: d.reason })),
      excluded: [...resolved.excluded, ...excludedExtra],
    };

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
      system: buildSystemPrompt({ workspace, instructions: resolved.instructions }),
      callSettings,
      runtimeToolNames,
      report,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
