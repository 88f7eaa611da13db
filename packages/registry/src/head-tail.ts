/** The kept ends of a text: its head and tail as captured (the middle may never have been kept), and its full length. */
export interface TextEnds {
  /** The start of the text (at least as long as any head asked for, unless the text is shorter). */
  head: string;
  /** The end of the text (at least as long as any tail asked for, unless the text is shorter). */
  tail: string;
  /** The length of the whole text, in UTF-16 code units. */
  total: number;
}

/** Options of {@link cutHeadTail}. */
export interface CutHeadTailOptions {
  /** Code units of the head at most. */
  headChars: number;
  /** Code units of the tail at most. */
  tailChars: number;
  /**
   * Moves each cut back to a line break when one lies within this fraction of the part's length
   * (0, the default: cut exactly where the budget ends).
   */
  lineSlack?: number;
}

/** What {@link cutHeadTail} keeps: the head, the tail, and the exact number of code units left out between them. */
export interface HeadTailCut {
  /** The kept head (the whole text when nothing is left out). */
  head: string;
  /** The kept tail (empty when nothing is left out). */
  tail: string;
  /** Code units left out between head and tail (exact whatever the cut). */
  omitted: number;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Keeps the head and the tail of a text within a budget and counts what is left out in between:
 * the one head/tail cut of every model view (shell output, compacted results, raw captures).
 * Never splits a surrogate pair; optionally lands on line boundaries. The caller adds its own
 * marker, so each view says in its own words what was left out and how to see it.
 */
export function cutHeadTail(text: string | TextEnds, options: CutHeadTailOptions): HeadTailCut {
  const ends = typeof text === 'string' ? { head: text, tail: text, total: text.length } : text;
  const headChars = Math.max(0, Math.floor(options.headChars));
  const tailChars = Math.max(0, Math.floor(options.tailChars));
  if (ends.total <= headChars + tailChars && ends.head.length >= ends.total) {
    return { head: ends.head.slice(0, ends.total), tail: '', omitted: 0 };
  }
  const slack = (n: number) => Math.floor(n * (options.lineSlack ?? 0));

  let headLength = Math.min(ends.head.length, headChars);
  const headNewline = ends.head.lastIndexOf('\n', headLength - 1);
  if (headNewline >= 0 && headNewline + 1 >= headLength - slack(headLength)) headLength = headNewline + 1;
  if (headLength > 0 && isLowSurrogate(ends.head.charCodeAt(headLength))) headLength -= 1;

  const tailLength = Math.min(ends.tail.length, tailChars);
  let tailStart = ends.tail.length - tailLength;
  const tailNewline = ends.tail.indexOf('\n', tailStart);
  if (tailNewline >= 0 && tailNewline < tailStart + slack(tailLength)) tailStart = tailNewline + 1;
  if (tailStart < ends.tail.length && isLowSurrogate(ends.tail.charCodeAt(tailStart))) tailStart += 1;

  const head = ends.head.slice(0, headLength);
  const tail = ends.tail.slice(tailStart);
  return { head, tail, omitted: ends.total - head.length - tail.length };
}
