import { cutHeadTail } from '@aibuddy/registry';

/** The name of the recovery tool the pointer tells the model to call. */
export const VIEW_TOOL_CALL = 'view_tool_call';

// One definition in the registry, shared with the runtime.
export { modelOutputText, normalizeModelOutput } from '@aibuddy/registry';

/** The note appended to a compacted view: how big the original was and how to get it back. */
export function recoveryNote(toolCallId: string, originalTokens: number, what: string): string {
  return (
    `[Compacted ${what}: the full result had ${originalTokens} tokens and is saved. ` +
    `To read it, call ${VIEW_TOOL_CALL} with {"toolCallId":${JSON.stringify(toolCallId)}} ` +
    `(add "offset" and "limit" to page through it).]`
  );
}

/** The whole view of a dropped result: no pointer, since nothing is kept. */
export function droppedNote(toolName: string, originalTokens: number): string {
  return `[The result of ${toolName} (${originalTokens} tokens) was used and then dropped from context; it is not kept. Call ${toolName} again if you need it.]`;
}

/** Cuts `text` to at most `chars` code units from the start without splitting a surrogate pair. */
export function headOf(text: string, chars: number): string {
  return cutHeadTail(text, { headChars: chars, tailChars: 0 }).head;
}

/**
 * The default policy for tools without a `compact` hook: keep the head and the tail of the
 * model view (60 / 40 of the budget) and say how much was left out in between.
 */
export function headTailTrim(text: string, tokens: number, targetTokens: number): string {
  const charsPerToken = text.length / Math.max(tokens, 1);
  const budget = Math.max(0, Math.floor(targetTokens * charsPerToken));
  if (budget >= text.length) return text;
  const headChars = Math.floor(budget * 0.6);
  const cut = cutHeadTail(text, { headChars, tailChars: budget - headChars });
  return `${cut.head}\n[... ${cut.omitted} characters omitted ...]\n${cut.tail}`;
}
