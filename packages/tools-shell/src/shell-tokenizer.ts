/**
 * Splits a command line into tokens: words (through `shell-word.ts`), operators and redirections,
 * and reads here-doc bodies at the newline after their `<<`. Problems are collected, never thrown.
 */
import { readDoubleQuoted } from './shell-expansion.js';
import { readWord } from './shell-word.js';
import type { WordReadContext } from './shell-word.js';
import type { HeredocInfo, Token } from './shell-token.js';

/** Reader state for one line: tokens so far, problems, here-docs waiting for their bodies. */
class Reader implements WordReadContext {
  readonly problems: string[] = [];
  readonly tokens: Token[] = [];
  private pendingHeredocs: Array<{ info: HeredocInfo; delimiter: string; quoted: boolean; stripTabs: boolean }> = [];
  private expectHeredocDelimiter: { stripTabs: boolean } | undefined;

  constructor(readonly input: string) {}

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
        const problem = (message: string) => this.problem(message);
        readDoubleQuoted({ input: body, problem }, 0, doc.info.subs, undefined);
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
        const { token, end } = readWord(this, i);
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
      const { token, end } = readWord(this, i);
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

/** Tokenizes `input`; `problems` lists what could not be read, in order, without repeats. */
export function tokenizeShell(input: string): { tokens: Token[]; problems: string[] } {
  const reader = new Reader(input);
  reader.tokenize();
  return { tokens: reader.tokens, problems: reader.problems };
}
