import { readFileSync } from 'node:fs';
import { z } from 'zod';

const replayScriptErrorMarker = Symbol.for('aibuddy.runtime.ReplayScriptError');

/** A replay script that cannot be read or does not have the documented shape. */
export class ReplayScriptError extends Error {
  private readonly [replayScriptErrorMarker] = true;
  override readonly name: string = 'ReplayScriptError';

  /** True for any `ReplayScriptError`, from any copy of this package. */
  static isInstance(error: unknown): error is ReplayScriptError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[replayScriptErrorMarker] === true;
  }
}

const toolCallSchema = z.object({
  toolName: z.string({ error: '"toolName" must be a non-empty string' }).min(1, '"toolName" must be a non-empty string'),
  input: z.record(z.string(), z.unknown(), { error: '"input" must be an object' }).optional(),
  id: z.string({ error: '"id" must be a non-empty string' }).min(1, '"id" must be a non-empty string').optional(),
});

const stepSchema = z
  .object(
    {
      toolCalls: z
        .array(toolCallSchema, { error: '"toolCalls" must be a non-empty array' })
        .min(1, '"toolCalls" must be a non-empty array')
        .optional(),
      text: z.string({ error: '"text" must be a string' }).optional(),
    },
    { error: 'is not an object' },
  )
  .refine((step) => step.toolCalls !== undefined || step.text !== undefined, 'has neither "toolCalls" nor "text"');

/** The zod schema of a replay script file (`--model replay:FILE`). */
export const replayScriptSchema = z.object(
  { steps: z.array(stepSchema, { error: 'there is no "steps" array at the top level' }).min(1, '"steps" is empty') },
  { error: 'there is no "steps" array at the top level' },
);

/** One scripted tool call. */
export interface ReplayToolCall {
  /** The tool name, exactly as the model sees it. */
  toolName: string;
  /** The input object (sent as its JSON text). */
  input: unknown;
  /** The call id (default `call-<step>-<index>`); give one to refer to the call later (`view_tool_call`). */
  id?: string;
}

/** One scripted model answer: tool calls (with optional text first), or final text. */
export type ReplayStep = { toolCalls: ReplayToolCall[]; text?: string } | { text: string };

/** A replay script: each model call consumes the next step. */
export interface ReplayScript {
  /** The steps, in order. */
  steps: ReplayStep[];
}

const SHAPE = '{"steps":[{"toolCalls":[{"toolName":"...","input":{...},"id":"optional"}]},{"text":"..."}]}';

/** `step 2, call 0` from a zod issue path; the issue's own path below that is in its message. */
function where(path: readonly PropertyKey[]): string {
  if (path[0] !== 'steps' || typeof path[1] !== 'number') return '';
  return path[2] === 'toolCalls' && typeof path[3] === 'number' ? `step ${path[1]}, call ${path[3]}` : `step ${path[1]}`;
}

/**
 * Checks a parsed replay script and returns it typed. Throws `ReplayScriptError` naming the first
 * offending step and what a script looks like.
 */
export function parseReplayScript(value: unknown, source = 'the replay script'): ReplayScript {
  const parsed = replayScriptSchema.safeParse(value);
  if (parsed.success) return parsed.data as ReplayScript;
  const issue = parsed.error.issues[0]!;
  const at = where(issue.path);
  const what =
    at === '' ? issue.message : /^(has|is) /.test(issue.message) ? `${at} ${issue.message}` : `${at}: ${issue.message}`;
  throw new ReplayScriptError(`${source}: ${what}. A replay script looks like ${SHAPE}.`);
}

/** Reads and checks a replay script file. Throws `ReplayScriptError` for an unreadable file, bad JSON or a bad shape. */
export function loadReplayScript(file: string, source = `--model replay:${file}`): ReplayScript {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ReplayScriptError(
      `${source}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Give the path of a JSON replay script.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ReplayScriptError(`${source}: not valid JSON (${(error as Error).message}).`);
  }
  return parseReplayScript(json, source);
}
