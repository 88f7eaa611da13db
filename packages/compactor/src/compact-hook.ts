/**
 * The tool's own `compact` hook: whether it may shrink a call's input, and asking it for a
 * decision. A failing hook is a warning and the default trimming applies; only a stop propagates.
 */
import type { CompactDecision } from '@aibuddy/registry';
import type { CompactionInput } from './compactor-types.js';
import { CompactorError } from './errors.js';

/** The hook's decision (undefined: use the default policy) and who made it. */
export interface HookDecision {
  /** What the hook decided, or undefined when the default policy applies. */
  decision: CompactDecision | undefined;
  /** `hook` when the tool's hook decided, `default` otherwise. */
  source: 'hook' | 'default';
}

/** What the hook is told besides the call: the budget and where failures are reported. */
export interface AskCompactHookOptions {
  /** The budget a compacted form aims for. */
  targetTokens: number;
  /** The compaction threshold in tokens. */
  threshold: number;
  /** Receives a failing hook's error. */
  warn: (error: CompactorError) => void;
}

/** Asks the tool's `compact` hook what to do with a result of `tokens` tokens (and an input of `inputTokens`). */
export async function askCompactHook(
  input: CompactionInput,
  text: string,
  tokens: number,
  signal: AbortSignal,
  options: AskCompactHookOptions,
  inputTokens?: number,
): Promise<HookDecision> {
  const { targetTokens, threshold, warn } = options;
  const hook = input.definition?.compact;
  if (!hook) return { decision: undefined, source: 'default' as const };
  try {
    const decision: CompactDecision = await hook({
      toolName: input.toolName,
      toolCallId: input.toolCallId,
      input: input.input,
      output: input.output,
      tokens,
      modelText: text,
      targetTokens,
      threshold,
      ...(inputTokens !== undefined ? { inputTokens } : {}),
      signal,
    });
    return { decision, source: 'hook' as const };
  } catch (error) {
    if (signal.aborted) throw error;
    warn(
      new CompactorError(
        `the compact hook of ${input.toolName} failed (${(error as Error)?.message}); the default trimming is used.`,
        {
          toolCallId: input.toolCallId,
          cause: error,
        },
      ),
    );
    return { decision: undefined, source: 'default' as const };
  }
}

/** A cheap upper bound for the caller's path: could this call's input reach the threshold (its hook may compact it)? */
export function inputMayBeLarge(info: CompactionInput, threshold: number): boolean {
  if (!info.definition?.compact || typeof info.input !== 'object' || info.input === null) return false;
  let chars = 0;
  for (const value of Object.values(info.input)) chars += typeof value === 'string' ? value.length : 64;
  // A token is at least one character: fewer characters than the threshold are certainly below it.
  return chars >= threshold;
}
