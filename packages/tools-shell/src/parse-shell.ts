/**
 * A POSIX/bash command-line reader that knows what it could NOT read. It splits a line into simple
 * commands (through `;`, `&&`, `||`, `&`, `|`, newlines, subshells, brace groups, `if`/`while`/`for`
 * bodies), removes quotes, records command and process substitutions, redirections and here-docs,
 * and marks every word whose value is only known at run time. Anything it does not model
 * (`case`, function definitions, `(( … ))`, an unterminated quote) becomes a `problem`: the policy
 * then treats the whole line as "cannot be analyzed", so a gap in the reader fails closed.
 * It never throws.
 */

/** How much is known about a word before the shell runs. */
export type ShellWordKind =
  /** Exactly `text`. */
  | 'literal'
  /** One or more words that all start with a fixed prefix that is not `-` (`src/*.ts`, `"$d/x"`, `~/a`): never an option. */
  | 'path-like'
  /** Anything, possibly several words or an option (`$x`, `*`, `$(…)`, `{a,-b}`). */
  | 'dynamic';

/** One word of a command, quotes removed. */
export interface ShellWord {
  /** The text with quotes removed; expansions are kept as written (`$HOME/x`). */
  text: string;
  /** What is known about the value. */
  kind: ShellWordKind;
  /** True when some part was quoted (a quoted delimiter makes a here-doc literal). */
  quoted: boolean;
}

/** One redirection of a simple command. */
export interface ShellRedirection {
  /** The operator: `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<<`, `<<-`, `<<<`, `<>`, `>&`, `<&`. */
  op: string;
  /** The file descriptor written before the operator (`2>`), if any. */
  fd?: string;
  /** The target word (a file, a descriptor number, a here-doc delimiter or a here-string). */
  target: ShellWord;
  /** For here-docs: the body. */
  body?: string;
}

/** One simple command of a command line. */
export interface ShellCommand {
  /** Leading `NAME=value` assignments. */
  assignments: ShellWord[];
  /** The program and its arguments. */
  argv: ShellWord[];
  /** Redirections, in order. */
  redirections: ShellRedirection[];
  /** `argv` as plain text (kept for host rules written against words). */
  words: string[];
  /** Targets of output redirections (`> f`, `>> f`, `2> f`, `&> f`, `>& f`), as text. */
  redirects: string[];
  /** Index of the pipeline this command belongs to (commands joined by `|` share it). */
  pipeline: number;
  /** Position inside its pipeline (0 = first). */
  pipelineIndex: number;
  /** Raw bodies of command and process substitutions (`$(…)`, backticks, `<(…)`, `>(…)`) in this command's words, redirections and here-docs. */
  substitutions: string[];
  /** Set for `for NAME in WORDS` headers: the words are data, not a program. */
  keyword?: 'for';
}

/** A command line as read. */
export interface ShellScript {
  /** Every simple command, in order of appearance. */
  commands: ShellCommand[];
  /** Why (parts of) the line could not be read; empty when it was read completely. */
  problems: string[];
}

interface HeredocInfo {
  /** Filled when the body is read, at the next newline (always before parsing starts). */
  body?: string;
  /** Substitutions in an unquoted body. */
  subs: string[];
}

type Token =
  | { kind: 'word'; word: ShellWord; raw: string; subs: string[]; heredoc?: HeredocInfo }
  | { kind: 'op'; value: string }
  | { kind: 'redir'; op: string; fd?: string };

// `\r` is NOT a separator: bash reads it as part of a word (`rm\r` is another program).
const NAME = /(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/y;
const META = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

class Reader {
  readonly problems: string[] = [];
  readonly tokens: Token[] = [];
  private pendingHeredocs: Array<{ info: HeredocInfo; delimiter: string; quoted: boolean; stripTabs: boolean }> = [];
  private expectHeredocDelimiter: { stripTabs: boolean } | undefined;

  constructor(private readonly input: string) {}

  // Cached look-ahead positions, so that a long run of `[` or `{` keeps reading linear.
  private readonly nextCache = new Map<string, number>();

  /** Index of the next `ch` at or after `from` (or the input length), cached. */
  nextIndex(ch: string, from: number): number {
    const cached = this.nextCache.get(ch);
    if (cached !== undefined && cached >= from) return cached;
    const found = this.input.indexOf(ch, from);
    const index = found === -1 ? this.input.length : found;
    this.nextCache.set(ch, index);
    return index;
  }

  problem(message: string): void {
    if (!this.problems.includes(message)) this.problems.push(message);
  }

  /** Reads a `(…)` body after the opening parenthesis, quote-aware; returns the body and the index after `)`. */
  parenBody(start: number): { body: string; end: number } | undefined {
    const input = this.input;
    let depth = 1;
    let i = start;
    while (i < input.length) {
      const c = input[i]!;
      if (c === '\\') i += 2;
      else if (c === "'") {
        const end = input.indexOf("'", i + 1);
        if (end === -1) return undefined;
        i = end + 1;
      } else if (c === '"') {
        const end = this.skipDouble(i + 1);
        if (end === undefined) return undefined;
        i = end;
      } else if (c === '`') {
        const end = this.skipBacktick(i + 1);
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
  private skipDouble(start: number): number | undefined {
    const input = this.input;
    let i = start;
    while (i < input.length) {
      const c = input[i]!;
      if (c === '\\') i += 2;
      else if (c === '"') return i + 1;
      else if (c === '$' && input[i + 1] === '(') {
        const inner = this.parenBody(i + 2);
        if (!inner) return undefined;
        i = inner.end;
      } else if (c === '`') {
        const end = this.skipBacktick(i + 1);
        if (end === undefined) return undefined;
        i = end;
      } else i += 1;
    }
    return undefined;
  }

  private skipBacktick(start: number): number | undefined {
    const input = this.input;
    let i = start;
    while (i < input.length) {
      if (input[i] === '\\') i += 2;
      else if (input[i] === '`') return i + 1;
      else i += 1;
    }
    return undefined;
  }

  /**
   * Reads `$…` at `i` (the `$` itself). Returns the text, the index after it, and substitutions.
   * `quotedContext` is true inside double quotes.
   */
  private dollar(i: number, subs: string[]): { text: string; end: number; expansion: boolean } {
    const input = this.input;
    const next = input[i + 1];
    if (next === '(' && input[i + 2] === '(') {
      // Arithmetic $(( … )): no commands unless it contains a substitution.
      const inner = this.parenBody(i + 2);
      if (!inner || !inner.body.endsWith(')')) {
        this.problem('an unterminated $(( … )) arithmetic expansion');
        return { text: input.slice(i), end: input.length, expansion: true };
      }
      if (/\$\(|`/.test(inner.body)) this.problem('a command substitution inside $(( … )) arithmetic');
      return { text: input.slice(i, inner.end + 1), end: inner.end + (input[inner.end] === ')' ? 1 : 0), expansion: true };
    }
    if (next === '(') {
      const inner = this.parenBody(i + 2);
      if (!inner) {
        this.problem('an unterminated $( … ) command substitution');
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
        this.problem('an unterminated ${ … } expansion');
        return { text: input.slice(i), end: input.length, expansion: true };
      }
      const body = input.slice(i + 2, j - 1);
      if (/\$\(|`|\$\{/.test(body)) this.problem('a substitution nested inside ${ … }');
      if (/@P$/.test(body)) this.problem('a ${…@P} prompt expansion (it can run commands)');
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
  doubleQuoted(
    start: number,
    subs: string[],
    terminator: '"' | undefined,
  ): { text: string; end: number; expansion: boolean; closed: boolean } {
    const input = this.input;
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
        const d = this.dollar(i, subs);
        if (d.expansion) expansion = true;
        text += d.text;
        i = d.end;
        continue;
      }
      if (c === '`') {
        const end = this.skipBacktick(i + 1);
        if (end === undefined) {
          this.problem('an unterminated `…` command substitution');
          return { text, end: input.length, expansion: true, closed: false };
        }
        subs.push(input.slice(i + 1, end - 1).replace(/\\([`\\$])/g, '$1'));
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

  /** Reads one word starting at `i`. */
  private word(start: number): { token: Extract<Token, { kind: 'word' }>; end: number } {
    const input = this.input;
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
          const inner = this.parenBody(i + 2);
          if (!inner) {
            this.problem('an unterminated process substitution');
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
          this.problem('an unterminated single quote');
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
        const inner = this.doubleQuoted(i + 1, subs, '"');
        if (!inner.closed) this.problem('an unterminated double quote');
        if (inner.expansion) addDynamic(inner.text, false);
        else addLiteral(inner.text);
        i = inner.end;
        continue;
      }
      if (c === '$' && (input[i + 1] === "'" || input[i + 1] === '"')) {
        // $'…' decodes escapes at run time (`$'\x72m'` is rm): treated as unknown text.
        quoted = true;
        const close = input[i + 1] === "'" ? this.ansiEnd(i + 2) : this.skipDouble(i + 2);
        if (close === undefined) {
          this.problem('an unterminated $\'…\' or $"…" quote');
          i = input.length;
          break;
        }
        addDynamic(input.slice(i, close), false);
        i = close;
        continue;
      }
      if (c === '$') {
        const d = this.dollar(i, subs);
        if (d.expansion) addDynamic(d.text, true);
        else addLiteral(d.text);
        i = d.end;
        continue;
      }
      if (c === '`') {
        const end = this.skipBacktick(i + 1);
        if (end === undefined) {
          this.problem('an unterminated `…` command substitution');
          i = input.length;
          break;
        }
        subs.push(input.slice(i + 1, end - 1).replace(/\\([`\\$])/g, '$1'));
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
      if (c === '*' || c === '?' || (c === '[' && this.nextIndex(']', i + 1) < input.length)) {
        // A bracket expression may hold quoted parts (`[-" "]o`): any later `]` makes it a glob.
        addDynamic(c, true);
        i += 1;
        continue;
      }
      if (c === '{') {
        // Brace expansion ({a,b}, {1..3}, {-o,"x y"}) can turn one word into several, options
        // included; quotes inside it make its extent hard to see, so any later `}` counts.
        const alone = i === start && (input[i + 1] === undefined || META.has(input[i + 1]!));
        if (!alone && this.nextIndex('}', i + 1) < input.length) {
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

  private ansiEnd(start: number): number | undefined {
    const input = this.input;
    let i = start;
    while (i < input.length) {
      if (input[i] === '\\') i += 2;
      else if (input[i] === "'") return i + 1;
      else i += 1;
    }
    return undefined;
  }

  private readHeredocBodies(start: number): number {
    const input = this.input;
    let i = start;
    for (const doc of this.pendingHeredocs.splice(0)) {
      let body = '';
      let found = false;
      while (i < input.length) {
        const nl = input.indexOf('\n', i);
        const lineEnd = nl === -1 ? input.length : nl;
        let line = input.slice(i, lineEnd);
        i = nl === -1 ? input.length : nl + 1;
        if (doc.stripTabs) line = line.replace(/^\t+/, '');
        if (line === doc.delimiter) {
          found = true;
          break;
        }
        body += `${line}\n`;
      }
      if (!found) this.problem(`a here-document without its closing "${doc.delimiter}" line`);
      doc.info.body = body;
      if (!doc.quoted) {
        // An unquoted delimiter: the body expands $(…) and backticks when the command runs.
        const sub = new Reader(body);
        sub.doubleQuoted(0, doc.info.subs, undefined);
        for (const p of sub.problems) this.problem(p);
      }
    }
    return i;
  }

  tokenize(): void {
    const input = this.input;
    let i = 0;
    while (i < input.length) {
      const c = input[i]!;
      if (c === ' ' || c === '\t') {
        i += 1;
        continue;
      }
      if (c === '\\' && input[i + 1] === '\n') {
        i += 2;
        continue;
      }
      if (c === '#') {
        while (i < input.length && input[i] !== '\n') i += 1;
        continue;
      }
      if (c === '\n') {
        this.tokens.push({ kind: 'op', value: '\n' });
        i += 1;
        if (this.pendingHeredocs.length > 0) i = this.readHeredocBodies(i);
        continue;
      }
      if ((c === '<' || c === '>') && input[i + 1] === '(') {
        const { token, end } = this.word(i);
        this.tokens.push(token);
        i = end;
        continue;
      }
      if (c === '<' || c === '>' || (c === '&' && input[i + 1] === '>')) {
        const three = input.slice(i, i + 3);
        const two = input.slice(i, i + 2);
        let op: string;
        if (three === '<<<' || three === '<<-' || three === '&>>') op = three;
        else if (['>>', '>|', '>&', '<<', '<>', '<&', '&>'].includes(two)) op = two;
        else op = c;
        // A descriptor number written right before the operator (`2>`) belongs to it.
        const last = this.tokens[this.tokens.length - 1];
        let fd: string | undefined;
        if (last?.kind === 'word' && /^\d+$/.test(last.raw) && i > 0 && !/\s/.test(input[i - 1]!)) {
          fd = last.raw;
          this.tokens.pop();
        }
        this.tokens.push({ kind: 'redir', op, ...(fd === undefined ? {} : { fd }) });
        if (op === '<<' || op === '<<-') this.expectHeredocDelimiter = { stripTabs: op === '<<-' };
        i += op.length;
        continue;
      }
      if (c === ';' || c === '&' || c === '|' || c === '(' || c === ')') {
        const two = input.slice(i, i + 2);
        if (two === '&&' || two === '||' || two === ';;' || two === '|&' || two === ';&') {
          this.tokens.push({ kind: 'op', value: two });
          i += 2;
        } else {
          this.tokens.push({ kind: 'op', value: c });
          i += 1;
        }
        continue;
      }
      const { token, end } = this.word(i);
      i = end;
      if (this.expectHeredocDelimiter) {
        const stripTabs = this.expectHeredocDelimiter.stripTabs;
        this.expectHeredocDelimiter = undefined;
        const info: HeredocInfo = { subs: [] };
        this.pendingHeredocs.push({ info, delimiter: token.word.text, quoted: token.word.quoted, stripTabs });
        this.tokens.push({ ...token, heredoc: info });
        continue;
      }
      this.tokens.push(token);
    }
    if (this.pendingHeredocs.length > 0) {
      for (const doc of this.pendingHeredocs.splice(0)) {
        doc.info.body = '';
        this.problem(`a here-document without its closing "${doc.delimiter}" line`);
      }
    }
  }
}

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
  const reader = new Reader(input);
  reader.tokenize();
  const tokens = reader.tokens;
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
        if (forHeader === 'name') forHeader = 'in';
        else if (forHeader === 'in') {
          if (word.text === 'do') {
            finish();
            continue;
          }
          if (word.text !== 'in') reader.problem('a for loop this reader does not follow');
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
          if (depth < 0) reader.problem('an unmatched }');
          // Redirections after `done` / `fi` / `}` apply to the whole block: kept on an empty command.
          current = emptyCommand(pipeline, pipelineIndex);
          continue;
        }
        if (UNSUPPORTED_KEYWORDS[word.text]) {
          reader.problem(UNSUPPORTED_KEYWORDS[word.text]!);
          continue;
        }
        if (word.text === 'for') {
          current = { ...emptyCommand(pipeline, pipelineIndex), keyword: 'for' };
          forHeader = 'name';
          if (tokens[t + 1]?.kind === 'op' && (tokens[t + 1] as { value: string }).value === '(')
            reader.problem('an arithmetic for (( … )) loop');
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
              reader.problem('an unterminated [[ … ]]');
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
        reader.problem('a function definition');
      }
      continue;
    }
    if (token.kind === 'redir') {
      current ??= emptyCommand(pipeline, pipelineIndex);
      const next = tokens[t + 1];
      if (next?.kind !== 'word') {
        reader.problem(`a redirection ${token.op} without a target`);
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
      if (current && (current.argv.length > 0 || current.assignments.length > 0))
        reader.problem('a ( in the middle of a command');
      if (tokens[t + 1]?.kind === 'op' && (tokens[t + 1] as { value: string }).value === '(')
        reader.problem('an arithmetic (( … )) command');
      finish();
      depth += 1;
      continue;
    }
    if (op === ')') {
      depth -= 1;
      if (depth < 0) reader.problem('an unmatched )');
      finish();
      current = emptyCommand(pipeline, pipelineIndex);
      continue;
    }
    if (op === ';;' || op === ';&') {
      reader.problem('a case statement');
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
  if (depth > 0) reader.problem('an unclosed ( or {');
  for (const command of commands) command.words = command.argv.map((w) => w.text);
  return { commands, problems: reader.problems };
}

/** The simple commands of a command line (see {@link parseShellScript}; problems are dropped). */
export function parseShellCommand(input: string): ShellCommand[] {
  return parseShellScript(input).commands;
}

const WRAPPERS_WITH_OPTIONS: Record<string, { argOptions: readonly string[] }> = {
  sudo: { argOptions: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '--user', '--group'] },
  doas: { argOptions: ['-u', '-C'] },
  env: { argOptions: ['-u', '-C', '-S', '--unset', '--chdir'] },
  nice: { argOptions: ['-n', '--adjustment'] },
  ionice: { argOptions: ['-c', '-n', '-p'] },
  timeout: { argOptions: ['-s', '-k', '--signal', '--kill-after'] },
  nohup: { argOptions: [] },
  setsid: { argOptions: [] },
  time: { argOptions: ['-f', '-o'] },
  command: { argOptions: [] },
  exec: { argOptions: ['-a'] },
  builtin: { argOptions: [] },
  stdbuf: { argOptions: ['-i', '-o', '-e'] },
  chroot: { argOptions: [] },
  watch: { argOptions: ['-n', '-d'] },
  busybox: { argOptions: [] },
  flock: { argOptions: ['-w', '-E', '--timeout', '--conflict-exit-code'] },
  xargs: {
    argOptions: ['-I', '-n', '-P', '-L', '-d', '-E', '-s', '-a', '--max-args', '--max-procs', '--delimiter', '--arg-file'],
  },
};

/**
 * The program and its arguments as they will run, for describing a command to a person: leading
 * `VAR=value` assignments and wrappers (`sudo`, `env`, `nohup`, `time`, `nice`, `timeout`,
 * `setsid`, `xargs`, `flock`, `busybox`, `command`, `exec`, …) are peeled off. `sudo` is reported
 * through `elevated`. (Whether a command is harmless is decided by `classifyCommand`, not here.)
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
    if (name === 'timeout' || name === 'chroot' || name === 'flock') {
      // timeout [options] DURATION command; flock [options] FILE command
      while (i < words.length && words[i]!.startsWith('-')) i += wrapper.argOptions.includes(words[i]!) ? 2 : 1;
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
