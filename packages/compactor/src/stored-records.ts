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
