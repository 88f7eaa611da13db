import type { ActiveSet } from '@aibuddy/discovery';

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

/** The parts of an AI SDK step the observer reads. */
interface ObservedStep {
  content: ReadonlyArray<{ type: string; toolName?: string; output?: unknown }>;
}

/**
 * Reads search results back into the active set: provider-executed searches (Anthropic server-side,
 * OpenAI hosted) report what they loaded only in their results, and a host's `tool_search` may mark
 * another set than this one. Each step is read once (the SDK hands over every step so far), so the
 * cost per step is that step's parts, never the history or the catalogue.
 */
export function createStepObserver(
  toolSearchName: string,
  deferred: ReadonlySet<string>,
  activeSet: Pick<ActiveSet, 'markDiscovered'>,
): (steps: readonly ObservedStep[]) => void {
  let seen = 0;
  return (steps) => {
    // A new run (or a shorter list) starts over.
    if (steps.length < seen) seen = 0;
    for (let i = seen; i < steps.length; i++) {
      for (const part of steps[i]!.content) {
        if (part.type === 'tool-result' && part.toolName === toolSearchName) {
          const names = namesInProviderSearchResult(part.output).filter((n) => deferred.has(n));
          if (names.length > 0) activeSet.markDiscovered(names);
        }
      }
    }
    seen = steps.length;
  };
}
