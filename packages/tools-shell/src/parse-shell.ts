/**
 * A small, forgiving POSIX-shell reader: enough structure to decide what a command line does
 * (which programs run, with which words, who pipes into whom), not a full shell grammar.
 * It never throws: an unterminated quote simply ends the word at the end of the input,
 * because a policy that crashes on odd input would fail open.
 */

/** One simple command of a command line, after quotes are removed. */
export interface ShellCommand {
  /** The words as the program would receive them (quotes removed), including leading env assignments and wrappers. */
  words: string[];
  /** Output redirection targets (`> file`, `>> file`, `2> file`, `&> file`). */
  redirects: string[];
  /**
   * Index of the pipeline this command belongs to (commands joined by `|` share it), so rules can
   * see who feeds whom (`curl … | sh`).
   */
  pipeline: number;
  /** Position inside its pipeline (0 = first). */
  pipelineIndex: number;
  /** Raw text of command substitutions (`$(…)`, backticks, `<(…)`) found in this command's words. */
  substitutions: string[];
}

const OPERATOR_CHARS = new Set([';', '&', '|', '\n', '(', ')']);

interface Token {
  kind: 'word' | 'op';
  value: string;
  /** For words: command substitutions seen inside the word. */
  subs?: string[];
}

/** Reads a `$(…)` or `<(…)` body starting after the opening parenthesis; returns the body and the index after `)`. */
function readParenBody(input: string, start: number): { body: string; end: number } {
  let depth = 1;
  let i = start;
  let quote: '"' | "'" | undefined;
  while (i < input.length) {
    const c = input[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i += 1;
      else if (c === quote) quote = undefined;
    } else if (c === '\\') i += 1;
    else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth += 1;
    else if (c === ')') {
      depth -= 1;
      if (depth === 0) return { body: input.slice(start, i), end: i + 1 };
    }
    i += 1;
  }
  return { body: input.slice(start), end: input.length };
}

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let word: string | undefined;
  let subs: string[] = [];
  const flush = () => {
    if (word !== undefined) tokens.push({ kind: 'word', value: word, subs });
    word = undefined;
    subs = [];
  };
  while (i < input.length) {
    const c = input[i]!;
    if (c === ' ' || c === '\t' || c === '\r') {
      flush();
      i += 1;
      continue;
    }
    if (c === '#' && word === undefined) {
      // A comment runs to the end of the line.
      while (i < input.length && input[i] !== '\n') i += 1;
      continue;
    }
    if (c === '\\') {
      if (input[i + 1] === '\n') {
        i += 2; // line continuation
        continue;
      }
      word = (word ?? '') + (input[i + 1] ?? '');
      i += 2;
      continue;
    }
    if (c === "'") {
      const end = input.indexOf("'", i + 1);
      const stop = end === -1 ? input.length : end;
      word = (word ?? '') + input.slice(i + 1, stop);
      i = stop + 1;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      let text = '';
      while (j < input.length && input[j] !== '"') {
        const d = input[j]!;
        if (d === '\\' && j + 1 < input.length && '"\\$`\n'.includes(input[j + 1]!)) {
          text += input[j + 1];
          j += 2;
          continue;
        }
        if (d === '$' && input[j + 1] === '(') {
          const { body, end } = readParenBody(input, j + 2);
          subs.push(body);
          text += `$(${body})`;
          j = end;
          continue;
        }
        if (d === '`') {
          const end = input.indexOf('`', j + 1);
          const stop = end === -1 ? input.length : end;
          subs.push(input.slice(j + 1, stop));
          text += input.slice(j, stop + 1);
          j = stop + 1;
          continue;
        }
        text += d;
        j += 1;
      }
      word = (word ?? '') + text;
      i = j + 1;
      continue;
    }
    if ((c === '$' || c === '<' || c === '>') && input[i + 1] === '(') {
      const { body, end } = readParenBody(input, i + 2);
      subs.push(body);
      word = (word ?? '') + input.slice(i, end);
      i = end;
      continue;
    }
    if (c === '`') {
      const end = input.indexOf('`', i + 1);
      const stop = end === -1 ? input.length : end;
      subs.push(input.slice(i + 1, stop));
      word = (word ?? '') + input.slice(i, stop + 1);
      i = stop + 1;
      continue;
    }
    if (c === '>' || c === '<') {
      // Redirection: a leading fd number (2>) or & (&>) belongs to the operator, not to a word.
      const fd = word !== undefined && /^\d+$/.test(word) ? word : undefined;
      if (fd !== undefined) word = undefined;
      flush();
      let op = c;
      if (input[i + 1] === '>' || input[i + 1] === '&' || input[i + 1] === '|') op += input[i + 1];
      tokens.push({ kind: 'op', value: op });
      i += op.length;
      continue;
    }
    if (OPERATOR_CHARS.has(c)) {
      flush();
      const two = input.slice(i, i + 2);
      if (two === '&&' || two === '||' || two === ';;' || two === '&>' || two === '|&') {
        tokens.push({ kind: 'op', value: two === '&>' ? '>' : two });
        i += 2;
      } else {
        tokens.push({ kind: 'op', value: c });
        i += 1;
      }
      continue;
    }
    if ((c === '{' || c === '}') && word === undefined && (input[i + 1] === undefined || /\s|;/.test(input[i + 1]!))) {
      // A brace group: structure only, like a subshell.
      flush();
      tokens.push({ kind: 'op', value: c === '{' ? '(' : ')' });
      i += 1;
      continue;
    }
    word = (word ?? '') + c;
    i += 1;
  }
  flush();
  return tokens;
}

/**
 * Splits a command line into its simple commands (across `&&`, `||`, `;`, `&`, newlines, `|`,
 * subshells and brace groups). Words are unquoted; substitutions are recorded, not expanded.
 */
export function parseShellCommand(input: string): ShellCommand[] {
  const tokens = tokenize(input);
  const commands: ShellCommand[] = [];
  let pipeline = 0;
  let pipelineIndex = 0;
  let current: ShellCommand | undefined;
  let redirectNext = false;
  const finish = () => {
    if (current && current.words.length > 0) commands.push(current);
    else if (current && current.redirects.length > 0) commands.push(current);
    current = undefined;
  };
  for (const token of tokens) {
    if (token.kind === 'word') {
      current ??= { words: [], redirects: [], pipeline, pipelineIndex, substitutions: [] };
      current.substitutions.push(...(token.subs ?? []));
      if (redirectNext) {
        current.redirects.push(token.value);
        redirectNext = false;
      } else current.words.push(token.value);
      continue;
    }
    const op = token.value;
    if (op === '>' || op === '>>' || op === '>|' || op === '>&') {
      current ??= { words: [], redirects: [], pipeline, pipelineIndex, substitutions: [] };
      redirectNext = true;
      continue;
    }
    if (op === '<' || op === '<<' || op === '<&') {
      // Input redirection: the next word is a source, not an argument; drop it.
      current ??= { words: [], redirects: [], pipeline, pipelineIndex, substitutions: [] };
      redirectNext = false;
      current.words.push('\u0000<');
      continue;
    }
    finish();
    redirectNext = false;
    if (op === '|' || op === '|&') {
      pipelineIndex += 1;
    } else {
      pipeline += 1;
      pipelineIndex = 0;
    }
  }
  finish();
  // Remove the placeholders of input redirections together with the word that followed them.
  for (const command of commands) {
    const words: string[] = [];
    for (let i = 0; i < command.words.length; i++) {
      if (command.words[i] === '\u0000<') {
        i += 1;
        continue;
      }
      words.push(command.words[i]!);
    }
    command.words = words;
  }
  return commands;
}

const WRAPPERS_WITH_OPTIONS: Record<string, { argOptions: readonly string[] }> = {
  sudo: { argOptions: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '--user', '--group'] },
  doas: { argOptions: ['-u', '-C'] },
  env: { argOptions: ['-u', '-C', '-S', '--unset', '--chdir'] },
  nice: { argOptions: ['-n', '--adjustment'] },
  ionice: { argOptions: ['-c', '-n', '-p'] },
  timeout: { argOptions: ['-s', '-k', '--signal', '--kill-after'] },
  nohup: { argOptions: [] },
  time: { argOptions: ['-f', '-o'] },
  command: { argOptions: [] },
  exec: { argOptions: ['-a'] },
  builtin: { argOptions: [] },
  stdbuf: { argOptions: ['-i', '-o', '-e'] },
  chroot: { argOptions: [] },
  watch: { argOptions: ['-n', '-d'] },
  xargs: { argOptions: ['-I', '-n', '-P', '-L', '-d', '-E', '-s', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file'] },
};

/**
 * The program and its arguments as they will run: leading `VAR=value` assignments and wrappers
 * (`sudo`, `env`, `nohup`, `time`, `nice`, `timeout`, `xargs`, `command`, `exec`, …) are peeled off.
 * `sudo` is reported through `elevated`.
 */
export function effectiveArgv(words: readonly string[]): { argv: string[]; elevated: boolean } {
  let i = 0;
  let elevated = false;
  for (;;) {
    while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i += 1;
    const word = words[i];
    if (word === undefined) break;
    const name = basename(word);
    const wrapper = WRAPPERS_WITH_OPTIONS[name];
    if (!wrapper) break;
    if (name === 'sudo' || name === 'doas') elevated = true;
    i += 1;
    if (name === 'timeout') {
      // timeout [options] DURATION command
      while (i < words.length && words[i]!.startsWith('-')) i += wrapper.argOptions.includes(words[i]!) ? 2 : 1;
      i += 1;
      continue;
    }
    if (name === 'chroot') {
      while (i < words.length && words[i]!.startsWith('-')) i += 1;
      i += 1;
      continue;
    }
    while (i < words.length && words[i]!.startsWith('-') && words[i] !== '-') {
      const option = words[i]!;
      if (option === '--') {
        i += 1;
        break;
      }
      i += wrapper.argOptions.includes(option) ? 2 : 1;
    }
  }
  return { argv: words.slice(i), elevated };
}

/** The last path segment of a program name (`/usr/bin/rm` → `rm`). */
export function basename(program: string): string {
  const slash = program.lastIndexOf('/');
  return slash === -1 ? program : program.slice(slash + 1);
}
