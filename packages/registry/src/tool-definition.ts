import type { z } from 'zod';
import type { InputValidation, JsonSchema, ToolInputSchema } from './input-schema.js';
import type { ToolServices } from './services.js';

/** A JSON value. */
export type JsonValue = null | string | number | boolean | JsonValue[] | { [key: string]: JsonValue };

/**
 * What the model is sent for a result (structurally the AI SDK's `ToolResultOutput` subset we use,
 * so the registry stays free of the `ai` dependency).
 */
export type ModelOutput =
  | { type: 'text'; value: string }
  | { type: 'json'; value: JsonValue }
  | { type: 'content'; value: Array<{ type: 'text'; text: string } | { type: string; [key: string]: unknown }> }
  | { type: 'error-text'; value: string }
  | { type: 'execution-denied'; reason?: string };

/** A stream of live output from a running tool. */
export type OutputStream = 'stdout' | 'stderr';

/** What a tool's `execute` receives besides its input. */
export interface ToolExecutionContext {
  /** The id of this call, stable across client, model and persistence. */
  toolCallId: string;
  /** Aborted by a user stop or a parent cancel. Every tool must honour it. */
  signal: AbortSignal;
  /** The task (run) this call belongs to, when the host has one. */
  taskId: string | undefined;
  /** The services injected for this run (sandbox, MCP, ...). */
  services: ToolServices;
  /** Sends a live output chunk to the client (transient: never reaches the model). */
  emitOutput(stream: OutputStream, chunk: string): void;
  /** Sends an empty heartbeat to the client (keeps streams alive; never reaches the model). */
  heartbeat(): void;
}

/** Arguments of the result projection hooks. */
export interface ResultHookArgs<INPUT = unknown, OUTPUT = unknown> {
  /** The tool that produced the result. */
  toolName: string;
  /** The call id. */
  toolCallId: string;
  /** The validated input. */
  input: INPUT;
  /** The raw output. */
  output: OUTPUT;
}

/**
 * A compact form of the call's INPUT, which later model steps get in place of the raw input (for
 * example a whole file to write replaced by its size, digest, first and last lines and a note on
 * how to read it back). Applied only when the input reaches the compaction threshold; the raw
 * input is kept and readable with `view_tool_call` (`part: "input"`).
 */
export interface CompactInputDecision {
  /** The compact input (a JSON object, like the input itself). Omit to keep the input as it is. */
  input?: { [key: string]: JsonValue };
}

/** What a tool's `compact` hook decides for a large result (and, optionally, a large input). */
export type CompactDecision = CompactInputDecision &
  /** Keep the result as it is (it is only sent when no smaller form exists). */
  (
    | { strategy: 'keep' }
    /** Structured trimming: the hook returns the trimmed model view itself. */
    | { strategy: 'trim'; modelOutput: ModelOutput | string }
    /** Ask the host-injected model for a summary; `focus` tells it what to keep. */
    | { strategy: 'summary'; focus?: string }
    /** Drop the result after use; allowed only for tools declared `disposable`. No recovery pointer. */
    | { strategy: 'drop' }
  );

/** Arguments of the `compact` hook. */
export interface CompactHookArgs<INPUT = unknown, OUTPUT = unknown> extends ResultHookArgs<INPUT, OUTPUT> {
  /** Token count of the model view before compaction. */
  tokens: number;
  /**
   * Token count of the input as JSON, when the compactor counted it (it does when the hook may
   * compact the input: the input reached the threshold). Below the threshold it is absent or smaller.
   */
  inputTokens?: number;
  /** The compaction threshold in tokens: only a part (result or input) of at least this size is compacted. */
  threshold?: number;
  /** The model view before compaction, as text. */
  modelText: string;
  /** The token budget a compacted form should aim for. */
  targetTokens: number;
  /** Aborted when the run stops. */
  signal: AbortSignal;
}

/** Decides how a large result is compacted for later model steps. */
export type CompactHook<INPUT = unknown, OUTPUT = unknown> = (
  args: CompactHookArgs<INPUT, OUTPUT>,
) => CompactDecision | Promise<CompactDecision>;

/** A high-impact classification of one concrete call, decided from its input. */
export interface ImpactAssessment {
  /** What the call acts on (a path, a remote, a package). */
  target: string;
  /** How far the effect reaches (for example "workspace", "remote repository", "registry"). */
  scope: string;
  /** What could go wrong, in a sentence a person can judge. */
  impact: string;
}

/** Result hooks a tool or a whole group can carry. */
export interface ToolResultHooks<INPUT = unknown, OUTPUT = unknown> {
  /** The model's view of a result. Defaults to the output as JSON (text for strings). */
  toModelOutput?(args: ResultHookArgs<INPUT, OUTPUT>): ModelOutput | string;
  /** The client's view of a result (display fields). Defaults to the raw output. */
  toClient?(args: ResultHookArgs<INPUT, OUTPUT>): unknown;
  /** How large results are compacted for later steps (see `@aibuddy/compactor`). */
  compact?(args: CompactHookArgs<INPUT, OUTPUT>): CompactDecision | Promise<CompactDecision>;
}

/** What `defineTool` takes. */
export interface ToolSpec<INPUT = unknown, OUTPUT = unknown> extends ToolResultHooks<INPUT, OUTPUT> {
  /** The name the model sees: `^[a-zA-Z0-9_-]{1,64}$`. */
  name: string;
  /** What the tool does and when to use it. Must not be empty. */
  description: string;
  /** A zod object schema or a JSON Schema object with top-level `type: "object"`. */
  inputSchema: ToolInputSchema;
  /**
   * Runs the call. Throw a `ToolError` to name the failing stage; anything else counts as `execution`.
   * A property, not a method: methods' parameters are checked bivariantly, which would let an
   * `execute(input: Wrong)` through.
   */
  execute: (input: INPUT, context: ToolExecutionContext) => Promise<OUTPUT> | OUTPUT;
  /**
   * Decides from the input whether this concrete call is high impact and needs a person's
   * confirmation. Return `undefined` for ordinary calls.
   */
  impact?: (input: INPUT) => ImpactAssessment | undefined;
  /** Results may be dropped from context after use (enables the `drop` compaction strategy). */
  disposable?: boolean;
  /** Never compact results of this tool (for example `view_tool_call`, which already pages). */
  exemptFromCompaction?: boolean;
}

/** A tool definition, normalized and checked at definition time. */
export interface ToolDefinition<INPUT = unknown, OUTPUT = unknown> extends ToolResultHooks<INPUT, OUTPUT> {
  /** Marker for duck-typing across package copies. */
  readonly kind: 'aibuddy.tool';
  /** The name the model sees. */
  readonly name: string;
  /** The description the model sees. */
  readonly description: string;
  /** The JSON Schema the model sees (top level `type: "object"`). */
  readonly inputJsonSchema: JsonSchema;
  /**
   * Input validation. Synchronous for the schemas `defineTool` takes; a definition may check
   * elsewhere and answer with a promise (MCP tools check on a worker thread with a deadline, since a
   * server's schema can cost exponential time). Callers await it.
   */
  validate(input: unknown): InputValidation<INPUT> | Promise<InputValidation<INPUT>>;
  /** Runs the call with validated input. */
  execute(input: INPUT, context: ToolExecutionContext): Promise<OUTPUT> | OUTPUT;
  /** See {@link ToolSpec.impact}. */
  impact?(input: INPUT): ImpactAssessment | undefined;
  /** See {@link ToolSpec.disposable}. */
  readonly disposable: boolean;
  /** See {@link ToolSpec.exemptFromCompaction}. */
  readonly exemptFromCompaction: boolean;
}

/** Infers the input type of a zod schema, or `unknown` for JSON Schema. */
export type InferToolInput<S> = S extends z.ZodType ? z.output<S> : unknown;

/** Any tool definition, whatever its types. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyToolDefinition = ToolDefinition<any, any>;

/** A definition whose input validation is synchronous: what `defineTool` returns. */
export type SyncToolDefinition<INPUT = unknown, OUTPUT = unknown> = Omit<ToolDefinition<INPUT, OUTPUT>, 'validate'> & {
  /** Synchronous input validation (the schema given to `defineTool`). */
  validate(input: unknown): InputValidation<INPUT>;
};
