/**
 * The shapes the shell reader produces: words with what is known about their value, redirections,
 * simple commands and the whole script. Kept apart from the reader so that the policy modules can
 * depend on the shapes without pulling in the tokenizer.
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
  /** For `for NAME in WORDS` headers: NAME, which takes each of the words in turn. */
  loopVariable?: string;
}

/** A command line as read. */
export interface ShellScript {
  /** Every simple command, in order of appearance. */
  commands: ShellCommand[];
  /** Why (parts of) the line could not be read; empty when it was read completely. */
  problems: string[];
}
