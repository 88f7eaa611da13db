/**
 * The tokens passed from the tokenizer to the grammar in `parse-shell.ts`. Internal: not exported
 * from the package.
 */
import type { ShellWord } from './shell-syntax.js';

/** A here-doc announced by `<<` or `<<-`; its body is read at the next newline. */
export interface HeredocInfo {
  /** Filled when the body is read, at the next newline (always before parsing starts). */
  body?: string;
  /** Substitutions in an unquoted body. */
  subs: string[];
}

/** A word token, with its raw text, substitutions and, after `<<`, the here-doc it delimits. */
export type WordToken = { kind: 'word'; word: ShellWord; raw: string; subs: string[]; heredoc?: HeredocInfo };

/** One token of a command line. */
export type Token = WordToken | { kind: 'op'; value: string } | { kind: 'redir'; op: string; fd?: string };
