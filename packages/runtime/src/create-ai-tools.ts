/**
 * `createAiTools`: resolved tools → a plain AI SDK tool map. Every call goes through the same
 * steps here (validation, authorization, heartbeats, client events, abort, stage attribution);
 * the options and hook shapes are in `ai-tools-types.ts`.
 */
import { jsonSchema, tool } from 'ai';
import type { ModelMessage, Tool, ToolExecutionOptions, ToolSet } from 'ai';

import { ToolError, toToolError } from '@aibuddy/registry';
import type {
  AnyToolDefinition,
  ImpactAssessment,
  ModelOutput,
  ResolvedTool,
  ResolvedToolSet,
  ToolExecutionContext,
} from '@aibuddy/registry';
import type { CreateAiToolsOptions, RuntimeHooks, ToolExecutionEndInfo } from './ai-tools-types.js';
import type { RuntimeEvent } from './events.js';
import { createApprovalLedger } from './approval-ledger.js';
import { authorizeCall, recordSdkApprovalRequest, stopOpenRequests } from './authorize-call.js';
import { hasSdkApprovalRequest } from './sdk-approval.js';
import { defaultModelOutput, modelOutputText } from './model-output.js';
import { abortReason, raceAbort } from './abort.js';
import { createBeatSource, withHeartbeats } from './heartbeat-stream.js';
import type { HeartbeatingResult } from './heartbeat-stream.js';
import { stopReason } from './stop-reason.js';

/** The AI SDK's model-output type, derived so that no extra dependency is needed. */
type ToolResultOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

/** Default period of heartbeats for running tools (fixed by the design: every 30 s). */
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 30_000;

/** How many finished calls whose view was already given stay in memory (older ones are forgotten). */
export const RETAINED_FINISHED_CALLS = 64;

interface CallRecord {
  info: ToolExecutionEndInfo;
  client: unknown;
  emitted: boolean;
  /** Set when a person rejected the call: the model is sent `execution-denied` with this reason. */
  deniedReason?: string;
}

/**
 * Turns resolved tools into a plain AI SDK tool map that runs unchanged under `generateText`,
 * `streamText` and `ToolLoopAgent`. Validation, authorization, heartbeats, client events, abort
 * plumbing and stage attribution happen here, identically for every tool.
 *
 * A call id identifies one call in the map from its start until the model is given its result: a
 * second call with an id that is taken (two calls of one step with the same id, as some
 * OpenAI-compatible servers send) is refused at the `parameters` stage and nothing runs. A later
 * step may use the id again. Give each run its own map.
 */
export function createAiTools(resolved: ResolvedToolSet | readonly ResolvedTool[], options: CreateAiToolsOptions = {}): ToolSet {
  const list = Array.isArray(resolved) ? (resolved as readonly ResolvedTool[]) : (resolved as ResolvedToolSet).tools;
  const hooks = options.hooks === undefined ? [] : Array.isArray(options.hooks) ? options.hooks : [options.hooks as RuntimeHooks];
  const emit = (event: RuntimeEvent) => {
    try {
      options.onEvent?.(event);
    } catch {
      // A failing client sink must never break a tool call.
    }
  };
  const calls = new Map<string, CallRecord>();
  const tools: ToolSet = {};
  const heartbeatInterval = options.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS;
  // The SDK asks for a result's view when it builds the next step's messages (and again only when
  // a UI history is converted back). Holding every raw output for the life of the tool map would
  // keep them all in memory: records whose view was given are kept for the latest few calls only.
  const retired = new Set<string>();
  const retire = (toolCallId: string) => {
    retired.delete(toolCallId);
    retired.add(toolCallId);
    for (const old of retired) {
      if (retired.size <= RETAINED_FINISHED_CALLS) break;
      retired.delete(old);
      calls.delete(old);
    }
  };
  // Ids of calls still in flight. With the ids of finished calls whose view the model was not given
  // yet, they are the ids a new call may not take: see `claimCallId`.
  const running = new Set<string>();
  const idTaken = (toolCallId: string) => running.has(toolCallId) || (calls.has(toolCallId) && !retired.has(toolCallId));
  const gate = options.confirmation;
  const ledger = gate?.ledger ?? createApprovalLedger();
  const authorize = gate ? gate.authorize : options.authorize;
  const askThroughSdk = gate?.via === 'ai-sdk' && gate.policy === 'ask';
  // Requests sent as AI SDK approval requests that no one has answered yet; a user stop closes them.
  const openSdkRequests = new Set<string>();
  if (askThroughSdk) {
    options.signal?.addEventListener(
      'abort',
      () =>
        void stopOpenRequests(openSdkRequests, ledger, emit, 'the run was stopped before the user decided').catch(
          () => undefined,
        ),
      { once: true },
    );
  }

  // Each AI SDK tool is built at its first lookup: a host with 10,000 deferred MCP tools offers a
  // few per step, and building them all (a dozen closures and the SDK's schema wrapper each) cost
  // memory for every tool and time at every recomposition. Enumerating the map still lists them all.
  const build = (entry: ResolvedTool): Tool => {
    const definition = entry.definition;
    const toolName = definition.name;

    const fail = (error: ToolError, info: Omit<ToolExecutionEndInfo, 'error' | 'durationMs'>, started: number): never => {
      const durationMs = Date.now() - started;
      const failedClient = { error: error.toJSON() };
      emit({
        type: 'tool-finished',
        toolCallId: info.toolCallId,
        toolName,
        client: failedClient,
        durationMs,
        error: { stage: error.stage, message: error.message },
      });
      emit({
        type: 'tool-result',
        toolCallId: info.toolCallId,
        toolName,
        client: failedClient,
        model: { type: 'error-text', value: error.message },
        error: { stage: error.stage, message: error.message },
        durationMs,
      });
      runHooks({ ...info, error, durationMs });
      throw error;
    };

    const runHooks = (info: ToolExecutionEndInfo) => {
      for (const hook of hooks) {
        if (!hook.onToolExecutionEnd) continue;
        try {
          void Promise.resolve(hook.onToolExecutionEnd(info)).catch(() => undefined);
        } catch {
          // Hooks run in the background; their failures never reach the call.
        }
      }
    };

    const run = async (rawInput: unknown, sdk: ToolExecutionOptions, beats: { beat(): void }): Promise<unknown> => {
      const started = Date.now();
      const toolCallId = sdk.toolCallId;
      const signals = [sdk.abortSignal, options.signal].filter((s): s is AbortSignal => s !== undefined);
      const signal =
        signals.length === 0 ? new AbortController().signal : signals.length === 1 ? signals[0]! : AbortSignal.any(signals);
      const base = {
        toolCallId,
        toolName,
        configKey: entry.configKey,
        definition,
        input: rawInput,
        taskId: options.taskId,
        signal,
      };
      emit({ type: 'tool-call', toolCallId, toolName, input: rawInput });

      // Two calls of one step with the same id (a model or provider bug, or an attack) would share
      // everything keyed by the id: the person's decision, the model's view of the result, the
      // stored raw output. The first call keeps the id; this one is refused before anything runs.
      if (idTaken(toolCallId)) {
        return fail(
          new ToolError(
            `another call of this step already has the id ${toolCallId}; call ids must be unique, so this call was refused and nothing ran.`,
            {
              stage: 'parameters',
              toolName,
              hint: 'Call the tool again if this call is still needed; it gets a new id.',
            },
          ),
          base,
          started,
        );
      }
      running.add(toolCallId);
      try {
        return await runClaimed(rawInput, sdk, beats, base, started, signal);
      } finally {
        running.delete(toolCallId);
      }
    };

    const runClaimed = async (
      rawInput: unknown,
      sdk: ToolExecutionOptions,
      beats: { beat(): void },
      base: Omit<ToolExecutionEndInfo, 'error' | 'durationMs' | 'output' | 'modelOutput'>,
      started: number,
      signal: AbortSignal,
    ): Promise<unknown> => {
      const toolCallId = sdk.toolCallId;
      if (signal.aborted) {
        return fail(
          new ToolError(`not started: ${abortReason(signal)}.`, { stage: 'execution', toolName, retryable: false }),
          base,
          started,
        );
      }

      const validation = await definition.validate(rawInput);
      if (!validation.success) {
        const issues = validation.issues.map((i) => `${i.path || '(input)'}: ${i.message}`).join('; ');
        return fail(
          new ToolError(`invalid input: ${issues}.`, {
            stage: 'parameters',
            toolName,
            details: { issues: validation.issues },
            hint: "Fix the input to match the tool's schema and call again.",
          }),
          base,
          started,
        );
      }
      const input = validation.value;
      const info = { ...base, input };

      const assessment = safeImpact(definition, input);
      if (assessment) {
        let outcome: Awaited<ReturnType<typeof authorizeCall>>;
        try {
          outcome = await authorizeCall({
            assessment,
            toolCallId,
            toolName,
            input,
            signal,
            messages: sdk.messages,
            authorize,
            ledger,
            emit,
          });
        } catch (error) {
          return fail(ToolError.isInstance(error) ? error : toToolError(error, 'authorization', toolName), info, started);
        } finally {
          openSdkRequests.delete(toolCallId);
        }
        if (!outcome.approved) {
          // A rejection is a person's answer, not a failure of the tool: the model is sent
          // `execution-denied` with the reason, and nothing ran.
          const durationMs = Date.now() - started;
          const error = new ToolError(`the user rejected this call: ${outcome.reason}`, {
            stage: 'authorization',
            toolName,
            retryable: false,
          });
          const client = { denied: true, reason: outcome.reason };
          calls.set(toolCallId, { info: { ...info, durationMs }, client, emitted: true, deniedReason: outcome.reason });
          emit({
            type: 'tool-finished',
            toolCallId,
            toolName,
            client,
            durationMs,
            error: { stage: 'authorization', message: error.message },
          });
          emit({
            type: 'tool-result',
            toolCallId,
            toolName,
            client,
            model: { type: 'execution-denied', reason: outcome.reason },
            error: { stage: 'authorization', message: error.message },
            durationMs,
          });
          runHooks({ ...info, error, durationMs });
          return client;
        }
      }

      const context: ToolExecutionContext = {
        toolCallId,
        signal,
        taskId: options.taskId,
        services: options.services ?? {},
        emitOutput: (stream, chunk) => emit({ type: 'tool-output', toolCallId, stream, chunk }),
        heartbeat: () => beats.beat(),
      };
      let output: unknown;
      try {
        output = await raceAbort(
          Promise.resolve().then(() => definition.execute(input, context)),
          signal,
        );
      } catch (error) {
        const toolError =
          signal.aborted && !ToolError.isInstance(error)
            ? new ToolError(`stopped: ${stopReason(signal, heartbeatInterval)}.`, {
                stage: 'execution',
                toolName,
                retryable: false,
                sideEffectsPossible: true,
                cause: error,
              })
            : toToolError(error, 'execution', toolName);
        return fail(toolError, info, started);
      }

      let modelOutput: ModelOutput;
      let client: unknown;
      try {
        modelOutput = defaultModelOutput(definition, toolCallId, input, output);
        client = definition.toClient ? definition.toClient({ toolName, toolCallId, input, output }) : output;
      } catch (error) {
        return fail(toToolError(error, 'projection', toolName), info, started);
      }
      const endInfo: ToolExecutionEndInfo = { ...info, output, modelOutput, durationMs: Date.now() - started };
      // Two events, so that neither promise is bent: the client gets the full result now
      // (`tool-finished`; background compaction never delays it), and `tool-result` follows
      // once the model view is final, so its `model` is exactly what the model is sent.
      calls.set(toolCallId, { info: endInfo, client, emitted: false });
      emit({ type: 'tool-finished', toolCallId, toolName, client, durationMs: endInfo.durationMs });
      runHooks(endInfo);
      return output;
    };

    // From the first moment to the last (a person deciding counts too), the call beats: each beat
    // is a client event and, for the AI SDK, a preliminary result that resets the chunk timeout.
    const execute = (rawInput: unknown, sdk: ToolExecutionOptions): HeartbeatingResult<unknown> => {
      const source = createBeatSource();
      const beats = {
        beat: () => {
          emit({ type: 'heartbeat', toolCallId: sdk.toolCallId });
          source.beat();
        },
      };
      const timer = heartbeatInterval > 0 ? setInterval(beats.beat, heartbeatInterval) : undefined;
      timer?.unref?.();
      const result = run(rawInput, sdk, beats).finally(() => {
        if (timer) clearInterval(timer);
      });
      return withHeartbeats(result, source);
    };

    const toModelOutput = async ({
      toolCallId,
      input,
      output,
    }: {
      toolCallId: string;
      input: unknown;
      output: unknown;
    }): Promise<ToolResultOutput> => {
      const record = calls.get(toolCallId);
      if (record?.deniedReason !== undefined) return { type: 'execution-denied', reason: record.deniedReason };
      let model: ModelOutput = record?.info.modelOutput ?? defaultModelOutput(definition, toolCallId, input, output);
      if (record) {
        for (const hook of hooks) {
          if (!hook.resolveModelOutput) continue;
          try {
            const replaced = await hook.resolveModelOutput({ ...record.info, modelOutput: model });
            if (replaced) model = replaced;
          } catch {
            // A failed compaction keeps the uncompacted view: correctness over size.
          }
        }
        if (!record.emitted) {
          record.emitted = true;
          emit({ type: 'tool-result', toolCallId, toolName, client: record.client, model, durationMs: record.info.durationMs });
        }
        retire(toolCallId);
      }
      return model as ToolResultOutput;
    };

    return tool({
      description: definition.description,
      // Validation happens in `execute`, so that bad input becomes a `parameters` error the model
      // can read and fix, instead of an SDK-level failure with no stage.
      inputSchema: jsonSchema(definition.inputJsonSchema as Parameters<typeof jsonSchema>[0], {
        validate: (value) => ({ success: true, value }),
      }),
      execute,
      toModelOutput,
      ...(askThroughSdk
        ? {
            needsApproval: async (
              rawInput: unknown,
              { toolCallId, messages }: { toolCallId: string; messages: ModelMessage[] },
            ) => {
              // Invalid input is reported by `execute` at the parameters stage; nothing to approve.
              const validation = await definition.validate(rawInput);
              if (!validation.success) return false;
              const assessment = safeImpact(definition, validation.value);
              if (!assessment) return false;
              // The SDK asks again while it checks an approval that came back: that is no new
              // request, and recording one now would accept an approval nobody was asked for.
              if (hasSdkApprovalRequest(messages, toolCallId)) return true;
              openSdkRequests.add(toolCallId);
              return recordSdkApprovalRequest({ assessment, toolCallId, toolName, input: validation.value, ledger, emit });
            },
          }
        : {}),
    }) as Tool;
  };
  for (const entry of list) defineLazyTool(tools, entry.definition.name, () => build(entry));
  return tools;
}

/**
 * `tools[name]`, built by `make` at the first read; every later read returns that tool. Assigning
 * replaces it with a plain property; deleting works as on any object. A copy of the map made with
 * its property descriptors (defer's tool maps) shares the one built tool.
 *
 * The read does not turn the accessor into a plain property: on an object of about 1,000 properties
 * (below V8's dictionary-mode threshold) redefining one costs ~2 ms, measured in bench/scale, so
 * five found tools cost 10 ms on the step that offers them.
 */
function defineLazyTool(tools: ToolSet, name: string, make: () => Tool): void {
  let built: Tool | undefined;
  Object.defineProperty(tools, name, {
    get: () => (built ??= make()),
    set(this: object, value: Tool | undefined) {
      Object.defineProperty(this, name, { value, writable: true, enumerable: true, configurable: true });
    },
    enumerable: true,
    configurable: true,
  });
}

function safeImpact(definition: AnyToolDefinition, input: unknown): ImpactAssessment | undefined {
  // A broken impact classifier must fail closed: treat the call as high impact.
  try {
    return definition.impact?.(input);
  } catch (error) {
    return { target: definition.name, scope: 'unknown', impact: `impact could not be assessed (${(error as Error).message})` };
  }
}

export { modelOutputText };
