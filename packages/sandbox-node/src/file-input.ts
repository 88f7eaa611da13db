/**
 * Refusals of an operation's input that need no disk: text UTF-8 cannot hold (in written text, and in
 * `exec`'s command and environment), and a file path spelled as a folder. Both used to pass silently
 * (a lone surrogate became U+FFFD on disk or in the shell; a trailing "/" was dropped and a file of
 * that name written), changing what the caller sent.
 */
import { findLoneSurrogate, SandboxArgumentError } from '@aibuddy/sandbox';

/**
 * Refuses `text` when it holds a lone surrogate (half of a UTF-16 pair, as a model cuts an emoji),
 * which UTF-8 cannot encode: writing it would put U+FFFD in the file instead, running it another command.
 * `path` is given for a file operation (nothing was changed) and left out for `exec` (nothing was run).
 */
export function checkEncodable(operation: string, field: string, text: string, path?: string): void {
  const found = findLoneSurrogate(text);
  if (!found) return;
  const what = path === undefined ? 'nothing was run' : 'nothing was changed';
  throw new SandboxArgumentError(
    `${operation}: ${field} has a lone surrogate (U+${found.code} at character ${found.index}), half of a character UTF-8 cannot store; ${what}. Send the character whole, or leave it out.`,
    path === undefined ? undefined : { path },
  );
}

/** Refuses a file path that ends in "/" (or "/."): it names a folder, and a file needs a name. */
export function checkFilePath(operation: string, path: string): void {
  if (typeof path !== 'string' || !/\/\.?$/.test(path) || /^\/*$/.test(path)) return;
  throw new SandboxArgumentError(
    `${operation}: the path "${path}" ends with "/", which names a folder; give the file's path without the trailing "/".`,
    { path },
  );
}
