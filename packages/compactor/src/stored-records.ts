import { z } from 'zod';
import { CompactorError } from './errors.js';
import type { StoredResult } from './result-store.js';

/**
 * The schemas of every record the compactor persists, checked on every read: a file from another
 * version, a torn or hand-edited file is refused with its path and the fix, never half-trusted.
 */

/** A model view as stored (the registry's `ModelOutput`; its variants are checked by `type`). */
const modelOutputSchema = z.looseObject({ type: z.enum(['text', 'json', 'content', 'error-text', 'execution-denied']) });

/** Schema of a compacted result record (`compacted_outputs/<task>/<call>.json`), version 1. */
export const storedResultSchema = z.object({
  version: z.literal(1),
  taskId: z.string().nullable(),
  toolCallId: z.string(),
  toolName: z.string(),
  input: z.unknown(),
  output: z.unknown(),
  modelText: z.string().nullable(),
  strategy: z.enum(['trim', 'summary', 'keep']),
  originalTokens: z.number().int().nonnegative(),
  compactedTokens: z.number().int().nonnegative(),
  compacted: modelOutputSchema,
  compactedInput: z.unknown().optional(),
  createdAt: z.string(),
});

const stagedError = z.object({ stage: z.string(), message: z.string() });

/** Schema of a task record (`tasks/<task>/task.json`), version 1. */
export const taskRecordSchema = z.object({
  version: z.literal(1),
  taskId: z.string().min(1),
  workspace: z.string().nullable(),
  task: z.string(),
  startedAt: z.string(),
  updatedAt: z.string(),
  runs: z.number().int().positive(),
  steps: z.number().int().nonnegative(),
  status: z.enum(['running', 'completed', 'failed', 'aborted']),
  error: stagedError.optional(),
});

/** One history message as stored (the AI SDK's `ModelMessage`: its parts are checked by the SDK when sent). */
const messageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
});

/** Schema of a task's history (`tasks/<task>/history.json`), version 1. */
export const historyRecordSchema = z.object({
  version: z.literal(1),
  taskId: z.string().min(1),
  messages: z.array(messageSchema),
  updatedAt: z.string(),
});

/** Schema of one call's raw record (`tasks/<task>/calls/<call>.json`), version 1. */
export const callRecordSchema = z.object({
  version: z.literal(1),
  taskId: z.string().min(1),
  toolCallId: z.string(),
  toolName: z.string(),
  input: z.unknown(),
  output: z.unknown().optional(),
  error: z
    .object({
      stage: z.enum(['discovery', 'parameters', 'authorization', 'execution', 'projection', 'verification']),
      message: z.string(),
    })
    .optional(),
  durationMs: z.number().nonnegative(),
  createdAt: z.string(),
});

/** Parses JSON text with a schema; any failure is a `CompactorError` naming the file and the fix. */
export function parseRecord<T>(schema: z.ZodType<T>, text: string, path: string, what: string, toolCallId?: string): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CompactorError(`${what} at ${path} is not valid JSON (a torn or edited file); remove it.`, {
      stage: 'execution',
      ...(toolCallId !== undefined ? { toolCallId } : {}),
      cause: error,
    });
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const version = (value as { version?: unknown } | null)?.version;
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(record)'}: ${i.message}`)
      .join('; ');
    throw new CompactorError(
      `${what} at ${path} does not match its format${version !== undefined && version !== 1 ? ` (version ${JSON.stringify(version)}; this build reads version 1)` : ''}: ${issues}. ` +
        'Remove the file, or read it with the aibuddy version that wrote it.',
      { stage: 'execution', ...(toolCallId !== undefined ? { toolCallId } : {}) },
    );
  }
  return parsed.data;
}

/** Parses a stored compacted result. */
export function parseStoredResult(text: string, path: string, toolCallId: string): StoredResult {
  return parseRecord(storedResultSchema, text, path, `the stored result of call "${toolCallId}"`, toolCallId) as StoredResult;
}
