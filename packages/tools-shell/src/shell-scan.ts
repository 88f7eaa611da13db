/**
 * Pure look-ahead over shell text: where a quoted run or a `( … )` body ends. No problems are
 * recorded here; the callers decide what an unterminated run means.
 */

/** Index after the next unescaped `close` at or after `start` (backslash escapes skipped), or undefined. */
export function skipEscapedTo(input: string, start: number, close: string): number | undefined {
  let i = start;
  while (i < input.length) {
    if (input[i] === '\\') i += 2;
    else if (input[i] === close) return i + 1;
    else i += 1;
  }
  return undefined;
}

/** Index after a quoted run opening at `i` (`'…'`, `"…"` or a backtick run), or undefined when it is not closed. */
function skipQuoted(input: string, i: number): number | undefined {
  const c = input[i];
  if (c === "'") {
    // Nothing is special inside single quotes, not even a backslash.
    const end = input.indexOf("'", i + 1);
    return end === -1 ? undefined : end + 1;
  }
  if (c === '"') return skipDouble(input, i + 1);
  return skipEscapedTo(input, i + 1, '`');
}

/** Reads a `(…)` body after the opening parenthesis, quote-aware; returns the body and the index after `)`. */
export function parenBody(input: string, start: number): { body: string; end: number } | undefined {
  let depth = 1;
  let i = start;
  while (i < input.length) {
    const c = input[i]!;
    if (c === '\\') i += 2;
    else if (c === "'" || c === '"' || c === '`') {
      const end = skipQuoted(input, i);
      if (end === undefined) return undefined;
      i = end;
    } else if (c === '(') {
      depth += 1;
      i += 1;
    } else if (c === ')') {
      depth -= 1;
      if (depth === 0) return { body: input.slice(start, i), end: i + 1 };
      i += 1;
    } else i += 1;
  }
  return undefined;
}

/** Index after the closing `"` of a double-quoted string starting at `start`, or undefined. */
export function skipDouble(input: string, start: number): number | undefined {
  let i = start;
  while (i < input.length) {
    const c = input[i]!;
    if (c === '\\') i += 2;
    else if (c === '"') return i + 1;
    else if (c === '$' && input[i + 1] === '(') {
      const inner = parenBody(input, i + 2);
      if (!inner) return undefined;
      i = inner.end;
    } else if (c === '`') {
      const end = skipEscapedTo(input, i + 1, '`');
      if (end === undefined) return undefined;
      i = end;
    } else i += 1;
  }
  return undefined;
}

/** The command inside a backtick substitution spanning `start` (the opening backtick) to `end` (after the closing one). */
export function backtickBody(input: string, start: number, end: number): string {
  return input.slice(start + 1, end - 1).replace(/\\([`\\$])/g, '$1');
}
