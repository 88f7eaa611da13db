import type { ModelOutput } from '@aibuddy/registry';

/** The name of the recovery tool the pointer tells the model to call. */
export const VIEW_TOOL_CALL = 'view_tool_call';

/** Normalizes a hook's answer (a string or a `ModelOutput`) into a `ModelOutput`. */
export function toModelOutput(value: ModelOutput | string): ModelOutput {
  return typeof value === 'string' ? { type: 'text', value } : value;
}

/** The text of a model view (what tokens are counted on). Mirrors the runtime's view of it. */
export function modelOutputText(output: ModelOutput | { type: string; value?: unknown; reason?: string }): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return String((output as { value: unknown }).value);
    case 'json':
    case 'error-json':
      return JSON.stringify((output as { value: unknown }).value) ?? 'null';
    case 'execution-denied': {
      const reason = (output as { reason?: string }).reason;
      return `Execution denied${reason ? `: ${reason}` : ''}`;
    }
    case 'content': {
      const parts = (output as { value: Array<{ type: string; text?: unknown }> }).value;
      return parts
        .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : JSON.stringify(part)))
        .join('\n');
    }
    default:
      return JSON.stringify(output);
  }
}

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
  if (chars >= text.length) return text;
  if (chars <= 0) return '';
  const code = text.charCodeAt(chars - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? chars - 1 : chars);
}

/** The last `chars` code units of `text`, without starting inside a surrogate pair. */
export function tailOf(text: string, chars: number): string {
  if (chars >= text.length) return text;
  if (chars <= 0) return '';
  const start = text.length - chars;
  const code = text.charCodeAt(start);
  return text.slice(code >= 0xdc00 && code <= 0xdfff ? start + 1 : start);
}

/**
 * The default policy for tools without a `compact` hook: keep the head and the tail of the
 * model view (60 / 40 of the budget) and say how much was left out in between.
 */
export function headTailTrim(text: string, tokens: number, targetTokens: number): string {
  const charsPerToken = text.length / Math.max(tokens, 1);
  const budget = Math.max(0, Math.floor(targetTokens * charsPerToken));
  if (budget >= text.length) return text;
  const head = headOf(text, Math.floor(budget * 0.6));
  const tail = tailOf(text, budget - Math.floor(budget * 0.6));
  const omitted = text.length - head.length - tail.length;
  return `${head}\n[... ${omitted} characters omitted ...]\n${tail}`;
}
