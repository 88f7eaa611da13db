/**
 * Variables that bash evaluates as code. Arithmetic (`$(( x ))`, `$[ x ]`, `[[ x -eq 0 ]]`, array
 * subscripts `${a[x]}`, substring offsets `${s:x}`) evaluates a variable's VALUE as an expression,
 * recursively, and an expression like `a[$(rm f)]` runs `rm f` while its subscript is read.
 * Indirect expansion `${!x}` does the same with the name stored in `x`. So a value the classifier
 * cannot see (`x=$(cat f)`, a loop over file names, `$_`, `BASH_REMATCH`) must not reach those
 * places. The rule proves, never guesses: a name in arithmetic is trusted only when every
 * assignment of it in the command line is a number or an arithmetic result, or when it is one of
 * the shell's own numeric variables; a name behind `${!…}` only when every assignment is a plain
 * word. Everything else is a finding.
 */
import { commandText, type Context } from './classify-context.js';
import { parenBody } from './shell-scan.js';
import type { ShellCommand } from './shell-syntax.js';

/** What the assignments of one variable in the command line can hold, worst case first. */
export type VariableValue = 'other' | 'name' | 'integer';

/** Variables the shell itself keeps numeric. */
const NUMERIC_SPECIALS = new Set([
  'RANDOM',
  'SRANDOM',
  'SECONDS',
  'LINENO',
  'EPOCHSECONDS',
  'BASHPID',
  'PPID',
  'UID',
  'EUID',
  'SHLVL',
  'OPTIND',
  'COLUMNS',
  'LINES',
]);

const INTEGER = /^[-+]?(\d+|0[xX][0-9a-fA-F]+)$/;
const PLAIN_NAME = /^([A-Za-z_][A-Za-z0-9_]*|\d+)$/;
const ARITHMETIC_ONLY = /^(\$\(\([\s\S]*\)\)|\$\[[\s\S]*\])$/;
/** Tokens of an expression; those that start with a letter or `_` name variables (not `0x1f`, `16#ff`). */
const TOKEN = /[A-Za-z0-9_#]+/g;
const ARITHMETIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

function valueKind(value: string, literal: boolean): VariableValue {
  if (INTEGER.test(value) || ARITHMETIC_ONLY.test(value)) return 'integer';
  if (literal && PLAIN_NAME.test(value)) return 'name';
  return 'other';
}

function record(ctx: Context, name: string, kind: VariableValue): void {
  const before = ctx.variables.get(name);
  const order: VariableValue[] = ['other', 'name', 'integer'];
  ctx.variables.set(name, before === undefined || order.indexOf(kind) < order.indexOf(before) ? kind : before);
}

/** Records what each assignment and `for` loop variable of `commands` can hold (a pre-pass: loops repeat). */
export function recordVariables(commands: readonly ShellCommand[], ctx: Context): void {
  for (const command of commands) {
    for (const word of command.assignments) {
      const match = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/.exec(word.text);
      if (!match) continue;
      // An element assignment (`a[i]=…`) or an append (`x+=…`) is judged like any other value.
      record(ctx, match[1]!, valueKind(word.text.slice(match[0].length), word.kind === 'literal'));
    }
    if (command.keyword === 'for' && command.loopVariable !== undefined) {
      const kinds = command.argv.map((w) => valueKind(w.text, w.kind === 'literal'));
      for (const kind of kinds.length === 0 ? (['other'] as const) : kinds) record(ctx, command.loopVariable, kind);
    }
  }
}

/** Names of variables in an arithmetic expression (`x`, `$x`, `${x}`; not numbers). */
function namesIn(expression: string): string[] {
  return (expression.match(TOKEN) ?? []).filter((t) => /^[A-Za-z_]/.test(t)).map((t) => t.replace(/#.*$/, ''));
}

/** Arithmetic expressions and indirect names inside one word's text (expansions kept as written). */
function evaluatedParts(text: string): { arithmetic: string[]; indirect: string[] } {
  const arithmetic: string[] = [];
  const indirect: string[] = [];
  for (let i = text.indexOf('$'); i !== -1 && i < text.length; i = text.indexOf('$', i + 1)) {
    if (text.startsWith('$((', i)) {
      const inner = parenBody(text, i + 2);
      if (inner) arithmetic.push(inner.body);
    } else if (text[i + 1] === '[') {
      const end = text.indexOf(']', i);
      arithmetic.push(text.slice(i + 2, end === -1 ? text.length : end));
    } else if (text[i + 1] === '{') {
      const end = text.indexOf('}', i);
      const body = text.slice(i + 2, end === -1 ? text.length : end);
      const indirectName = /^!([A-Za-z_][A-Za-z0-9_]*)/.exec(body);
      if (indirectName) indirect.push(indirectName[1]!);
      const subscript = /^[!#]?[A-Za-z_][A-Za-z0-9_]*\[([^\]]*)\]/.exec(body);
      if (subscript && subscript[1] !== '@' && subscript[1] !== '*') arithmetic.push(subscript[1]!);
      // `${s:off:len}` (not `${s:-x}`, `${s:=x}`, `${s:+x}`, `${s:?x}`).
      const slice = /^[!#]?[A-Za-z_0-9@*]+(?:\[[^\]]*\])?:(?![-=+?])(.*)$/s.exec(body);
      if (slice) arithmetic.push(slice[1]!);
    }
  }
  return { arithmetic, indirect };
}

function untrustedIn(expression: string, ctx: Context): string | undefined {
  if (/\$\(|`/.test(expression)) return 'the output of a command';
  for (const name of namesIn(expression)) {
    if (NUMERIC_SPECIALS.has(name)) continue;
    if (ctx.variables.get(name) !== 'integer') return `$${name}`;
  }
  return undefined;
}

/** Flags places where the command evaluates a value it cannot prove harmless as arithmetic or as a variable name. */
export function checkEvaluatedVariables(command: ShellCommand, ctx: Context): void {
  const found: string[] = [];
  const texts: string[] = [];
  for (const word of [...command.assignments, ...command.argv]) if (word.kind !== 'literal') texts.push(word.text);
  for (const r of command.redirections) {
    if (r.target.kind !== 'literal' && !r.op.startsWith('<<')) texts.push(r.target.text);
    if (r.op === '<<<' && r.target.kind !== 'literal') texts.push(r.target.text);
    if (r.body !== undefined && !r.target.quoted) texts.push(r.body);
  }
  for (const text of texts) {
    const { arithmetic, indirect } = evaluatedParts(text);
    for (const expression of arithmetic) {
      const what = untrustedIn(expression, ctx);
      if (what) found.push(`evaluates ${what} as arithmetic (${text})`);
    }
    for (const name of indirect) {
      const kind = ctx.variables.get(name);
      if (kind !== 'name' && kind !== 'integer') found.push(`expands the variable named by $${name} (${text})`);
    }
  }
  // [[ A -eq B ]]: both sides are arithmetic expressions, quoted or not.
  if (command.argv[0]?.text === '[[') {
    command.argv.forEach((word, k) => {
      if (!ARITHMETIC_TESTS.has(word.text) || word.kind !== 'literal') return;
      for (const side of [command.argv[k - 1], command.argv[k + 1]]) {
        const what = side ? untrustedIn(side.text, ctx) : undefined;
        if (what) found.push(`evaluates ${what} as arithmetic in [[ … ${word.text} … ]]`);
      }
    });
  }
  if (found.length > 0)
    ctx.findings.push({
      command: commandText(command),
      reason: `${found[0]}, a value the command line does not prove harmless: text like a[$(cmd)] in it would run cmd`,
      kind: 'dynamic',
      words: command.words,
      simple: command,
    });
}
