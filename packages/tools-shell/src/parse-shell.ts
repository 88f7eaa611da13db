/**
 * A POSIX/bash command-line reader that knows what it could NOT read. It splits a line into simple
 * commands (through `;`, `&&`, `||`, `&`, `|`, newlines, subshells, brace groups, `if`/`while`/`for`
 * bodies), removes quotes, records command and process substitutions, redirections and here-docs,
 * and marks every word whose value is only known at run time. Anything it does not model
 * (`case`, function definitions, `(( … ))`, an unterminated quote) becomes a `problem`: the policy
 * then treats the whole line as "cannot be analyzed", so a gap in the reader fails closed.
 * It never throws. This file is the grammar over tokens; `shell-tokenizer.ts` reads the text.
 */
import type { ShellCommand, ShellRedirection, ShellScript } from './shell-syntax.js';
import { tokenizeShell } from './shell-tokenizer.js';

const OPENING_KEYWORDS = new Set(['if', 'then', 'elif', 'else', 'do', 'while', 'until', '!', '{', 'time']);
const CLOSING_KEYWORDS = new Set(['fi', 'done', '}']);
const UNSUPPORTED_KEYWORDS: Record<string, string> = {
  case: 'a case statement',
  function: 'a function definition',
  coproc: 'a coprocess',
  select: 'a select loop',
};

function emptyCommand(pipeline: number, pipelineIndex: number): ShellCommand {
  return { assignments: [], argv: [], redirections: [], words: [], redirects: [], pipeline, pipelineIndex, substitutions: [] };
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/**
 * Reads a command line. `problems` lists what could not be read; when it is empty, `commands`
 * holds every simple command the line can run, apart from what substitutions run (their raw
 * bodies are in `substitutions`, to be read the same way).
 */
export function parseShellScript(input: string): ShellScript {
  const { tokens, problems } = tokenizeShell(input);
  const problem = (message: string) => {
    if (!problems.includes(message)) problems.push(message);
  };
  const commands: ShellCommand[] = [];
  let pipeline = 0;
  let pipelineIndex = 0;
  let current: ShellCommand | undefined;
  let depth = 0;
  let forHeader: 'name' | 'in' | 'words' | undefined;
  const finish = () => {
    if (
      current &&
      (current.argv.length > 0 || current.assignments.length > 0 || current.redirections.length > 0 || current.keyword)
    )
      commands.push(current);
    current = undefined;
    forHeader = undefined;
  };
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    if (token.kind === 'word') {
      const word = token.word;
      const atStart = !current || (current.argv.length === 0 && current.assignments.length === 0 && !current.keyword);
      if (forHeader) {
        current!.substitutions.push(...token.subs);
        if (forHeader === 'name') {
          current!.loopVariable = word.text;
          forHeader = 'in';
        } else if (forHeader === 'in') {
          if (word.text === 'do') {
            finish();
            continue;
          }
          if (word.text !== 'in') problem('a for loop this reader does not follow');
          forHeader = 'words';
        } else {
          if (word.text === 'do' && word.kind === 'literal' && !word.quoted) {
            finish();
            continue;
          }
          current!.argv.push(word);
        }
        continue;
      }
      if (atStart && word.kind === 'literal' && !word.quoted) {
        if (OPENING_KEYWORDS.has(word.text)) {
          if (word.text === '{') depth += 1;
          continue;
        }
        if (CLOSING_KEYWORDS.has(word.text)) {
          if (word.text === '}') depth -= 1;
          if (depth < 0) problem('an unmatched }');
          // Redirections after `done` / `fi` / `}` apply to the whole block: kept on an empty command.
          current = emptyCommand(pipeline, pipelineIndex);
          continue;
        }
        if (UNSUPPORTED_KEYWORDS[word.text]) {
          problem(UNSUPPORTED_KEYWORDS[word.text]!);
          continue;
        }
        if (word.text === 'for') {
          current = { ...emptyCommand(pipeline, pipelineIndex), keyword: 'for' };
          forHeader = 'name';
          if (tokens[t + 1]?.kind === 'op' && (tokens[t + 1] as { value: string }).value === '(')
            problem('an arithmetic for (( … )) loop');
          continue;
        }
        if (word.text === '[[') {
          // [[ … ]]: < and > inside are comparisons, not redirections.
          current ??= emptyCommand(pipeline, pipelineIndex);
          current.argv.push(word);
          while (t + 1 < tokens.length) {
            const next = tokens[++t]!;
            if (next.kind === 'word') {
              current.substitutions.push(...next.subs);
              current.argv.push(next.word);
              if (next.word.text === ']]') break;
            } else if (next.kind === 'redir') current.argv.push({ text: next.op, kind: 'literal', quoted: false });
            else if (
              next.kind === 'op' &&
              (next.value === '&&' || next.value === '||' || next.value === '(' || next.value === ')')
            ) {
              current.argv.push({ text: next.value, kind: 'literal', quoted: false });
            } else {
              problem('an unterminated [[ … ]]');
              t -= 1;
              break;
            }
          }
          continue;
        }
      }
      current ??= emptyCommand(pipeline, pipelineIndex);
      current.substitutions.push(...token.subs);
      if (current.argv.length === 0 && ASSIGNMENT.test(token.raw)) {
        current.assignments.push(word);
        continue;
      }
      current.argv.push(word);
      if (tokens[t + 1]?.kind === 'op' && (tokens[t + 1] as { value: string }).value === '(' && current.argv.length === 1) {
        problem('a function definition');
      }
      continue;
    }
    if (token.kind === 'redir') {
      current ??= emptyCommand(pipeline, pipelineIndex);
      const next = tokens[t + 1];
      if (next?.kind !== 'word') {
        problem(`a redirection ${token.op} without a target`);
        continue;
      }
      t += 1;
      current.substitutions.push(...next.subs);
      const redirection: ShellRedirection = {
        op: token.op,
        target: next.word,
        ...(token.fd === undefined ? {} : { fd: token.fd }),
      };
      if (next.heredoc) {
        redirection.body = next.heredoc.body ?? '';
        current.substitutions.push(...next.heredoc.subs);
      }
      current.redirections.push(redirection);
      if (/>/.test(token.op) && !(token.op === '>&' && /^(\d+|-)$/.test(next.word.text))) current.redirects.push(next.word.text);
      continue;
    }
    const op = token.value;
    if (op === '(') {
      if (current && (current.argv.length > 0 || current.assignments.length > 0)) problem('a ( in the middle of a command');
      if (tokens[t + 1]?.kind === 'op' && (tokens[t + 1] as { value: string }).value === '(')
        problem('an arithmetic (( … )) command');
      finish();
      depth += 1;
      continue;
    }
    if (op === ')') {
      depth -= 1;
      if (depth < 0) problem('an unmatched )');
      finish();
      current = emptyCommand(pipeline, pipelineIndex);
      continue;
    }
    if (op === ';;' || op === ';&') {
      problem('a case statement');
      continue;
    }
    finish();
    if (op === '|' || op === '|&') pipelineIndex += 1;
    else {
      pipeline += 1;
      pipelineIndex = 0;
    }
  }
  finish();
  if (depth > 0) problem('an unclosed ( or {');
  for (const command of commands) command.words = command.argv.map((w) => w.text);
  return { commands, problems };
}

/** The simple commands of a command line (see {@link parseShellScript}; problems are dropped). */
export function parseShellCommand(input: string): ShellCommand[] {
  return parseShellScript(input).commands;
}
