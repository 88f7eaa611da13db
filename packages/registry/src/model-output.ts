import type { ModelOutput } from './tool-definition.js';

/** Normalizes a hook's answer (a string or a `ModelOutput`) into a `ModelOutput`. */
export function normalizeModelOutput(value: ModelOutput | string): ModelOutput {
  return typeof value === 'string' ? { type: 'text', value } : value;
}

/**
 * The text of a model view: what tokens are counted on and what logs show. One definition for
 * the runtime (which sends the view) and the compactor (which counts and trims it), so both see
 * the same text. Accepts a stored view of any `type` (a record written by another version): an
 * unknown type is shown as its JSON.
 */
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
