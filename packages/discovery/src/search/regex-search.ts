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

// A group containing + or * (or {n,}) that is itself followed by +, * or {.
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*(?:[+*]|\{\d*,\d*\})(?:[^()\\]|\\.)*\)\s*(?:[+*]|\{\d*,)/;
// Text tested per field: enough for any real description, and a bound on matching time.
const MAX_FIELD_CHARS = 4000;

// Where a match counts most: a pattern that matches the name is what the model was looking for.
const NAME_SCORE = 4;
const SERVER_SCORE = 2;
const DESCRIPTION_SCORE = 1.5;
const PARAMS_SCORE = 1;

/**
 * Compiles a regex query. A leading `(?i)` (Python style, which models often write) becomes the `i`
 * flag, since JavaScript only accepts flags outside the pattern.
 */
export function compileRegexQuery(query: string): RegExp {
  if (query.length === 0)
    throw new ToolSearchQueryError('The regex query is empty; pass a pattern such as "weather" or "get_.*_issue".', { query });
  if (query.length > MAX_REGEX_LENGTH) {
    throw new ToolSearchQueryError(
      `The regex query is ${query.length} characters long; the limit is ${MAX_REGEX_LENGTH}. Use a shorter pattern.`,
      { query },
    );
  }
  // Nested quantifiers ("(a+)+", "(\\w*)*") can backtrack exponentially on long descriptions, and
  // JavaScript regexes cannot be interrupted: refuse them up front.
  if (NESTED_QUANTIFIER.test(query)) {
    throw new ToolSearchQueryError(
      'The regex query repeats a group that itself contains a repetition (like "(a+)+"), which can take forever to run. Simplify the pattern.',
      { query },
    );
  }
  let source = query;
  let flags = 'u';
  const inline = /^\(\?([imsx]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    for (const f of inline[1] as string) if (f === 'i' || f === 'm' || f === 's') flags += f;
  }
  try {
    return new RegExp(source, flags);
  } catch (cause) {
    try {
      // Patterns written for Python's `re` are not always valid in Unicode mode (e.g. "\-" escapes).
      return new RegExp(source, flags.replace('u', ''));
    } catch {
      throw new ToolSearchQueryError(
        `The regex query is not a valid pattern: ${(cause as Error).message}. Fix the pattern and retry.`,
        {
          query,
          cause,
        },
      );
    }
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
