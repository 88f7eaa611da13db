/**
 * Reads the expanding parts of a shell word: `$…` (parameters, `$( … )`, `$(( … ))`, `${ … }`) and
 * the inside of double quotes (also an unquoted here-doc body). Records every command
 * substitution it passes and reports what it cannot follow as a problem.
 */
import { backtickBody, parenBody, skipEscapedTo } from './shell-scan.js';

/** What the readers share: the input and a sink for problems (the owner deduplicates them). */
export interface ShellReadContext {
  /** The whole text being read. */
  readonly input: string;
  /** Records why part of the text could not be read. */
  problem(message: string): void;
}

const NAME = /(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/y;

/**
 * Reads a backtick substitution opening at `i`: records its command in `subs` and returns the index
 * after it, or undefined (and a problem) when it is not closed.
 */
export function readBacktick(ctx: ShellReadContext, i: number, subs: string[]): number | undefined {
  const end = skipEscapedTo(ctx.input, i + 1, '`');
  if (end === undefined) {
    ctx.problem('an unterminated `…` command substitution');
    return undefined;
  }
  subs.push(backtickBody(ctx.input, i, end));
  return end;
}

/**
 * Reads `$…` at `i` (the `$` itself). Returns the text, the index after it, and substitutions.
 */
export function readDollar(ctx: ShellReadContext, i: number, subs: string[]): { text: string; end: number; expansion: boolean } {
  const input = ctx.input;
  const next = input[i + 1];
  if (next === '(' && input[i + 2] === '(') {
    // Arithmetic $(( … )): no commands unless it contains a substitution.
    const inner = parenBody(input, i + 2);
    if (!inner || !inner.body.endsWith(')')) {
      ctx.problem('an unterminated $(( … )) arithmetic expansion');
      return { text: input.slice(i), end: input.length, expansion: true };
    }
    if (/\$\(|`/.test(inner.body)) ctx.problem('a command substitution inside $(( … )) arithmetic');
    // parenBody started at the second `(`: its end is already past the closing `))`.
    return { text: input.slice(i, inner.end), end: inner.end, expansion: true };
  }
  if (next === '(') {
    const inner = parenBody(input, i + 2);
    if (!inner) {
      ctx.problem('an unterminated $( … ) command substitution');
      return { text: input.slice(i), end: input.length, expansion: true };
    }
    subs.push(inner.body);
    return { text: input.slice(i, inner.end), end: inner.end, expansion: true };
  }
  if (next === '{') {
    let depth = 1;
    let j = i + 2;
    while (j < input.length && depth > 0) {
      if (input[j] === '\\') j += 1;
      else if (input[j] === '{') depth += 1;
      else if (input[j] === '}') depth -= 1;
      j += 1;
    }
    if (depth > 0) {
      ctx.problem('an unterminated ${ … } expansion');
      return { text: input.slice(i), end: input.length, expansion: true };
    }
    const body = input.slice(i + 2, j - 1);
    if (/\$\(|`|\$\{/.test(body)) ctx.problem('a substitution nested inside ${ … }');
    if (/@P$/.test(body)) ctx.problem('a ${…@P} prompt expansion (it can run commands)');
    return { text: input.slice(i, j), end: j, expansion: true };
  }
  if (next === "'" || next === '"') {
    // $'…' (ANSI-C) and $"…" (locale): handled by the caller as quotes, but the value is not plain text.
    return { text: '$', end: i + 1, expansion: true };
  }
  NAME.lastIndex = i + 1;
  const name = NAME.exec(input);
  if (name) return { text: input.slice(i, i + 1 + name[0].length), end: i + 1 + name[0].length, expansion: true };
  return { text: '$', end: i + 1, expansion: false };
}

/** Reads the inside of a double-quoted string (or an unquoted here-doc body when `terminator` is undefined). */
export function readDoubleQuoted(
  ctx: ShellReadContext,
  start: number,
  subs: string[],
  terminator: '"' | undefined,
): { text: string; end: number; expansion: boolean; closed: boolean } {
  const input = ctx.input;
  let i = start;
  let text = '';
  let expansion = false;
  while (i < input.length) {
    const c = input[i]!;
    if (terminator && c === terminator) return { text, end: i + 1, expansion, closed: true };
    if (c === '\\' && i + 1 < input.length && '"\\$`\n'.includes(input[i + 1]!) && (terminator || input[i + 1] !== '"')) {
      if (input[i + 1] !== '\n') text += input[i + 1];
      i += 2;
      continue;
    }
    if (c === '$') {
      const d = readDollar(ctx, i, subs);
      if (d.expansion) expansion = true;
      text += d.text;
      i = d.end;
      continue;
    }
    if (c === '`') {
      const end = readBacktick(ctx, i, subs);
      if (end === undefined) return { text, end: input.length, expansion: true, closed: false };
      text += input.slice(i, end);
      expansion = true;
      i = end;
      continue;
    }
    text += c;
    i += 1;
  }
  return { text, end: input.length, expansion, closed: terminator === undefined };
}
