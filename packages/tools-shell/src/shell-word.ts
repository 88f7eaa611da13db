/**
 * Reads one shell word: removes quotes, records substitutions, and works out how much of its value
 * is known before the shell runs (`literal`, `path-like` or `dynamic`), which is what decides
 * whether a word could turn out to be an option.
 */
import { readBacktick, readDollar, readDoubleQuoted } from './shell-expansion.js';
import type { ShellReadContext } from './shell-expansion.js';
import { parenBody, skipDouble, skipEscapedTo } from './shell-scan.js';
import type { ShellWordKind } from './shell-syntax.js';
import type { WordToken } from './shell-token.js';

/** The reader state a word needs beyond the input: a cached look-ahead for `]` and `}`. */
export interface WordReadContext extends ShellReadContext {
  /** Index of the next `ch` at or after `from` (or the input length). */
  nextIndex(ch: string, from: number): number;
}

/** Characters that end an unquoted word. `\r` is NOT one: bash reads it as part of a word (`rm\r` is another program). */
export const META = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

/** Reads one word starting at `i`. */
export function readWord(ctx: WordReadContext, start: number): { token: WordToken; end: number } {
  const input = ctx.input;
  let i = start;
  let text = '';
  let quoted = false;
  const subs: string[] = [];
  // What is known so far: the literal prefix ends at the first run-time part.
  let prefix = '';
  let prefixOpen = true;
  let dynamic = false; // some part is only known at run time
  let splits = false; // an unquoted run-time part (word splitting, globbing, brace expansion)
  const addLiteral = (s: string) => {
    text += s;
    if (prefixOpen) prefix += s;
  };
  const addDynamic = (s: string, unquoted: boolean) => {
    text += s;
    prefixOpen = false;
    dynamic = true;
    if (unquoted) splits = true;
  };
  while (i < input.length) {
    const c = input[i]!;
    if (META.has(c)) {
      // `<(` / `>(` inside a word or at its start is a process substitution.
      if ((c === '<' || c === '>') && input[i + 1] === '(' && i === start) {
        const inner = parenBody(input, i + 2);
        if (!inner) {
          ctx.problem('an unterminated process substitution');
          i = input.length;
          break;
        }
        subs.push(inner.body);
        // The shell passes a path (/dev/fd/N): one word, never an option.
        text += input.slice(i, inner.end);
        prefix += '/dev/fd/';
        prefixOpen = false;
        dynamic = true;
        i = inner.end;
        continue;
      }
      break;
    }
    if (c === '\\') {
      if (input[i + 1] === '\n') {
        i += 2;
        continue;
      }
      quoted = true;
      addLiteral(input[i + 1] ?? '');
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = input.indexOf("'", i + 1);
      quoted = true;
      if (end === -1) {
        ctx.problem('an unterminated single quote');
        addLiteral(input.slice(i + 1));
        i = input.length;
        break;
      }
      addLiteral(input.slice(i + 1, end));
      i = end + 1;
      continue;
    }
    if (c === '"') {
      quoted = true;
      const inner = readDoubleQuoted(ctx, i + 1, subs, '"');
      if (!inner.closed) ctx.problem('an unterminated double quote');
      if (inner.expansion) addDynamic(inner.text, false);
      else addLiteral(inner.text);
      i = inner.end;
      continue;
    }
    if (c === '$' && (input[i + 1] === "'" || input[i + 1] === '"')) {
      // $'…' decodes escapes at run time (`$'\x72m'` is rm): treated as unknown text.
      quoted = true;
      const close = input[i + 1] === "'" ? skipEscapedTo(input, i + 2, "'") : skipDouble(input, i + 2);
      if (close === undefined) {
        ctx.problem('an unterminated $\'…\' or $"…" quote');
        i = input.length;
        break;
      }
      addDynamic(input.slice(i, close), false);
      i = close;
      continue;
    }
    if (c === '$') {
      const d = readDollar(ctx, i, subs);
      if (d.expansion) addDynamic(d.text, true);
      else addLiteral(d.text);
      i = d.end;
      continue;
    }
    if (c === '`') {
      const end = readBacktick(ctx, i, subs);
      if (end === undefined) {
        i = input.length;
        break;
      }
      addDynamic(input.slice(i, end), true);
      i = end;
      continue;
    }
    if (
      c === '[' &&
      i === start &&
      (input[i + 1] === undefined ||
        META.has(input[i + 1]!) ||
        (input[i + 1] === '[' && (input[i + 2] === undefined || META.has(input[i + 2]!))))
    ) {
      // `[` and `[[` as command words (test), not globs.
      const word = input[i + 1] === '[' ? '[[' : '[';
      addLiteral(word);
      i += word.length;
      continue;
    }
    if (c === '*' || c === '?' || (c === '[' && ctx.nextIndex(']', i + 1) < input.length)) {
      // A bracket expression may hold quoted parts (`[-" "]o`): any later `]` makes it a glob.
      addDynamic(c, true);
      i += 1;
      continue;
    }
    if (c === '{') {
      // Brace expansion ({a,b}, {1..3}, {-o,"x y"}) can turn one word into several, options
      // included; quotes inside it make its extent hard to see, so any later `}` counts.
      const alone = i === start && (input[i + 1] === undefined || META.has(input[i + 1]!));
      if (!alone && ctx.nextIndex('}', i + 1) < input.length) {
        addDynamic(c, true);
        i += 1;
        continue;
      }
    }
    if (c === '~' && i === start) {
      // Tilde expansion: a home folder path, never an option.
      text += c;
      prefix += c;
      prefixOpen = false;
      dynamic = true;
      i += 1;
      continue;
    }
    addLiteral(c);
    i += 1;
  }
  let kind: ShellWordKind = 'literal';
  if (dynamic)
    kind =
      prefix.length > 0 && !prefix.startsWith('-') && (!splits || /^[^\s]*\//.test(prefix) || prefix.startsWith('~'))
        ? 'path-like'
        : 'dynamic';
  // An unquoted expansion after a prefix still splits into several words: only a path prefix
  // keeps every resulting word from being an option.
  if (kind === 'path-like' && splits && !prefix.includes('/') && !prefix.startsWith('~')) kind = 'dynamic';
  return { token: { kind: 'word', word: { text, kind, quoted }, raw: input.slice(start, i), subs }, end: i };
}
