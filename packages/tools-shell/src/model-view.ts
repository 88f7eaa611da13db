import { cutHeadTail } from '@aibuddy/registry';
import type { StreamCapture } from './output-capture.js';

/** A stream of output as it appears in the model view. */
export interface StreamView {
  /** The text shown: the whole output, or head + omission marker + tail. */
  text: string;
  /** Characters of the output left out in the middle (exact; 0 when shown whole). */
  omitted: number;
}

/**
 * Head and tail of one stream within `budget` characters, the omission marker included.
 * Cuts land on line boundaries when one is near, and never split a surrogate pair; the omitted
 * count is exact whatever the cut.
 */
export function headTail(capture: StreamCapture, budget: number, streamName: string): StreamView {
  if (capture.total <= budget && capture.head.length === capture.total) return { text: capture.head, omitted: 0 };
  // The marker's own length depends on the number it prints; reserve for the widest case.
  const markerFor = (omitted: number) =>
    `\n[… ${omitted} characters omitted from the middle of ${streamName}; re-run with a narrower command (grep, head, tail, sed -n) to see them …]\n`;
  const room = Math.max(0, budget - markerFor(capture.total).length);
  // The tail usually holds the verdict (errors, summaries), so it gets the larger share.
  const headChars = Math.min(capture.head.length, Math.floor(room * 0.4));
  const cut = cutHeadTail(capture, { headChars, tailChars: room - headChars, lineSlack: 0.2 });
  return { text: `${cut.head}${markerFor(cut.omitted)}${cut.tail}`, omitted: cut.omitted };
}

/** Splits a character budget between stdout and stderr: each gets what it needs, the larger one the rest. */
export function splitBudget(stdout: number, stderr: number, budget: number): { stdout: number; stderr: number } {
  if (stdout + stderr <= budget) return { stdout, stderr };
  const errBudget = Math.min(stderr, Math.max(budget - stdout, Math.floor(budget / 3)));
  const outBudget = Math.min(stdout, budget - errBudget);
  return { stdout: outBudget, stderr: Math.min(stderr, budget - outBudget) };
}

/** Formats a duration for people and models (`850 ms`, `12.3 s`). */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}
