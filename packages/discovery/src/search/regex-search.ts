import { RE2JS } from 're2js';
import { ToolSearchQueryError } from './errors.js';
import type { ToolSearchHit } from './types.js';

/** The text of one tool that a regex query is tested against. */
export interface RegexDocument {
  name: string;
  server: string;
  description: string;
  /** Parameter names and descriptions, one per line. */
  params: string;
}

/** Longest pattern accepted (Anthropic's regex tool search uses the same bound). */
export const MAX_REGEX_LENGTH = 200;

// Text tested per field: enough for any real description.
const MAX_FIELD_CHARS = 4000;

// Where a match counts most: a pattern that matches the name is what the model was looking for.
const NAME_SCORE = 4;
const SERVER_SCORE = 2;
const DESCRIPTION_SCORE = 1.5;
const PARAMS_SCORE = 1;

/** A compiled regex query. */
export interface RegexQuery {
  /** Whether the pattern matches somewhere in `text`. */
  test(text: string): boolean;
}

// Constructs RE2 has no linear-time way to run: the reason is named instead of "invalid".
const NEEDS_BACKTRACKING = /\\[1-9]|\\k<|\(\?<?[=!]/;

/**
 * Compiles a regex query with RE2's semantics (re2js): matching takes time linear in the text,
 * whatever the pattern. The model writes the pattern, and a JavaScript RegExp cannot be interrupted:
 * "((\\w+))+!" or "a.*a.*a.*a.*x" on a long description would block the host for hours. A leading
 * `(?i)` (Python and RE2 style, which models often write) is RE2's own flag syntax.
 */
export function compileRegexQuery(query: string): RegexQuery {
  if (query.length === 0)
    throw new ToolSearchQueryError('The regex query is empty; pass a pattern such as "weather" or "get_.*_issue".', { query });
  if (query.length > MAX_REGEX_LENGTH) {
    throw new ToolSearchQueryError(
      `The regex query is ${query.length} characters long; the limit is ${MAX_REGEX_LENGTH}. Use a shorter pattern.`,
      { query },
    );
  }
  if (NEEDS_BACKTRACKING.test(query)) {
    throw new ToolSearchQueryError(
      'The regex query uses backreferences and lookaround ("\\1", "(?=", "(?!", "(?<="), which this search does not run (it matches in linear time). Write the pattern without them, or search with plain words.',
      { query },
    );
  }
  try {
    return RE2JS.compile(query);
  } catch (cause) {
    throw new ToolSearchQueryError(
      `The regex query is not a valid pattern: ${(cause as Error).message}. Fix the pattern and retry.`,
      { query, cause },
    );
  }
}

/**
 * Tools whose name, server, description or parameter text match `query` (a regular expression),
 * ranked by the best field matched (name > server > description > parameters), more fields matched
 * first, then catalog order.
 */
export function regexSearch(query: string, docs: readonly RegexDocument[], limit: number): ToolSearchHit[] {
  const re = compileRegexQuery(query);
  if (limit <= 0) return [];
  const scored: { d: number; score: number }[] = [];
  for (let d = 0; d < docs.length; d++) {
    const doc = docs[d] as RegexDocument;
    let score = 0;
    if (re.test(doc.name)) score += NAME_SCORE;
    if (doc.server && re.test(doc.server)) score += SERVER_SCORE;
    if (doc.description && re.test(doc.description.slice(0, MAX_FIELD_CHARS))) score += DESCRIPTION_SCORE;
    if (doc.params && re.test(doc.params.slice(0, MAX_FIELD_CHARS))) score += PARAMS_SCORE;
    if (score > 0) scored.push({ d, score });
  }
  scored.sort((a, b) => b.score - a.score || a.d - b.d);
  return scored.slice(0, limit).map(({ d, score }) => ({ name: (docs[d] as RegexDocument).name, score }));
}
