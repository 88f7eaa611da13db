import { cutHeadTail } from '@aibuddy/registry';

/**
 * `text` when it has at most `max` code units, else its head ending in "…" (`max` code units in all).
 * Never splits a surrogate pair: half of one is invalid JSON text for a provider.
 */
export function cutForModel(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${cutHeadTail(text, { headChars: max - 1, tailChars: 0 }).head}…`;
}
