import { SandboxArgumentError } from '@aibuddy/sandbox';

/** Longest glob pattern accepted. */
export const MAX_GLOB_PATTERN_CHARS = 1000;
/** Most alternatives `{a,b}` may expand to (nested braces multiply). */
export const MAX_GLOB_ALTERNATIVES = 256;

/** One character-consuming step of a segment pattern (`*` is handled separately). */
type Token =
  | { kind: 'char'; ch: string }
  | { kind: 'any' }
  | { kind: 'star' }
  | { kind: 'class'; negate: boolean; items: Array<[string, string]> };

/** A path segment of a pattern: `**`, or tokens matched against one name. */
type Segment = { kind: 'globstar' } | { kind: 'name'; tokens: Token[] };

/** One alternative of a pattern after brace expansion. */
interface Alternative {
  segments: Segment[];
  /** True when the alternative has a `/` (then it is matched against the whole path). */
  anchored: boolean;
}

/** A compiled glob: `test` takes a `/`-separated path relative to the search folder. */
export interface GlobMatcher {
  /** The pattern as given. */
  readonly pattern: string;
  /** Whether the path (relative to the search folder) matches. */
  test(path: string): boolean;
}

function refuse(pattern: string, why: string): never {
  throw new SandboxArgumentError(`glob: the pattern "${pattern.slice(0, 200)}" ${why}.`);
}

/** Expands `{a,b}` alternatives (nestable), bounded so that `{a,b}{c,d}...` cannot explode. */
function expandBraces(pattern: string, whole: string): string[] {
  let depth = 0;
  let open = -1;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '[') {
      // Skip a class: braces inside it are literal.
      const close = classEnd(pattern, i);
      if (close !== -1) i = close;
      continue;
    }
    if (ch === '{') {
      if (depth === 0) open = i;
      depth++;
    } else if (ch === '}' && depth > 0) {
      depth--;
      if (depth === 0) {
        const options = splitTopLevel(pattern.slice(open + 1, i));
        const head = pattern.slice(0, open);
        const tails = expandBraces(pattern.slice(i + 1), whole);
        const out: string[] = [];
        for (const option of options) {
          for (const expanded of expandBraces(option, whole)) {
            for (const tail of tails) {
              out.push(head + expanded + tail);
              if (out.length > MAX_GLOB_ALTERNATIVES) refuse(whole, `expands to more than ${MAX_GLOB_ALTERNATIVES} alternatives`);
            }
          }
        }
        return out;
      }
    }
  }
  if (depth > 0) refuse(whole, 'has an unbalanced "{"');
  return [pattern];
}

/** Splits a brace body on commas that are not inside nested braces. */
function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch === '\\') i++;
    else if (ch === '{') depth++;
    else if (ch === '}') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/** Index of the `]` closing a class that opens at `open`, or -1 (then `[` is literal). */
function classEnd(pattern: string, open: number): number {
  let i = open + 1;
  if (pattern[i] === '!' || pattern[i] === '^') i++;
  if (pattern[i] === ']') i++; // `[]a]`: a leading `]` is a member
  for (; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']') return i;
    else if (pattern[i] === '/') return -1;
  }
  return -1;
}

function parseSegment(text: string): Segment {
  if (text === '**') return { kind: 'globstar' };
  const tokens: Token[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '*') {
      // `a**b` within a name is the same as `a*b`; consecutive stars collapse.
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (ch === '?') tokens.push({ kind: 'any' });
    else if (ch === '\\' && i + 1 < text.length) tokens.push({ kind: 'char', ch: text[++i]! });
    else if (ch === '[' && classEnd(text, i) !== -1) {
      const close = classEnd(text, i);
      let j = i + 1;
      const negate = text[j] === '!' || text[j] === '^';
      if (negate) j++;
      const items: Array<[string, string]> = [];
      let first = true;
      while (j < close || (first && text[j] === ']')) {
        first = false;
        let lo = text[j]!;
        if (lo === '\\') lo = text[++j]!;
        j++;
        if (text[j] === '-' && j + 1 < close) {
          let hi = text[j + 1]!;
          j += 2;
          if (hi === '\\') hi = text[j++]!;
          items.push([lo, hi]);
        } else items.push([lo, lo]);
      }
      tokens.push({ kind: 'class', negate, items });
      i = close;
    } else tokens.push({ kind: 'char', ch });
  }
  return { kind: 'name', tokens };
}

function tokenMatches(token: Token, ch: string): boolean {
  switch (token.kind) {
    case 'char':
      return token.ch === ch;
    case 'any':
      return true;
    case 'class': {
      const inside = token.items.some(([lo, hi]) => ch >= lo && ch <= hi);
      return inside !== token.negate;
    }
    default:
      return false;
  }
}

/**
 * Matches one name against one segment's tokens with the two-pointer wildcard algorithm: on a
 * mismatch it resumes after the last `*`, one character further. No recursion and no
 * backtracking RegExp, so the cost is at most (name length × tokens), whatever the pattern.
 */
function matchName(tokens: Token[], name: string, dot: boolean): boolean {
  // Wildcards never match a leading dot: `.env` needs a pattern that spells the dot.
  if (!dot && name.startsWith('.') && !(tokens[0]?.kind === 'char' && tokens[0].ch === '.')) return false;
  let t = 0;
  let n = 0;
  let starT = -1;
  let starN = 0;
  while (n < name.length) {
    const token = tokens[t];
    if (token?.kind === 'star') {
      starT = t++;
      starN = n;
    } else if (token !== undefined && tokenMatches(token, name[n]!)) {
      t++;
      n++;
    } else if (starT !== -1) {
      t = starT + 1;
      n = ++starN;
    } else return false;
  }
  while (tokens[t]?.kind === 'star') t++;
  return t === tokens.length;
}

/**
 * Matches path parts against segments by dynamic programming over (segment, part): `**` takes
 * zero or more parts (never one that starts with a dot), every other segment exactly one part.
 * Cost: segments × parts name matches.
 */
function matchSegments(segments: Segment[], parts: string[], dot: boolean): boolean {
  const k = segments.length;
  const n = parts.length;
  // reach[j]: the first i segments can consume the first j parts.
  let reach = new Array<boolean>(n + 1).fill(false);
  reach[0] = true;
  for (let i = 0; i < k; i++) {
    const segment = segments[i]!;
    const next = new Array<boolean>(n + 1).fill(false);
    if (segment.kind === 'globstar') {
      for (let j = 0; j <= n; j++) {
        if (reach[j]) next[j] = true;
        else if (j > 0 && next[j - 1] && (dot || !parts[j - 1]!.startsWith('.'))) next[j] = true;
      }
    } else {
      for (let j = 1; j <= n; j++) next[j] = reach[j - 1]! && matchName(segment.tokens, parts[j - 1]!, dot);
    }
    reach = next;
  }
  return reach[n]!;
}

/**
 * Compiles a glob. The one meaning used by the `glob` operation and by grep's `glob` filter (with
 * either engine), the same as ripgrep's `--glob` and `.gitignore`:
 *
 * - Paths are `/`-separated and relative to the search folder (`path`).
 * - A pattern without `/` matches a file's name at any depth: `*.py` finds `a.py` and `src/b.py`.
 * - A pattern with `/` matches the whole relative path; a leading `/` or `./` only anchors it.
 * - `**` as a whole segment spans zero or more folders; `*` and `?` stay within one name;
 *   `[abc]`, `[a-z]`, `[!a]` are classes; `{a,b}` are alternatives (nestable); `\` escapes.
 * - Wildcards do not match a leading dot unless the pattern spells it.
 *
 * Matching takes time linear in the path for a given pattern (no backtracking regular expression),
 * so a hostile pattern such as `**\/*a*a*a*a*a*b` cannot stall the process.
 */
export function compileGlob(pattern: string, options?: { dot?: boolean }): GlobMatcher {
  // `dot`: wildcards match a leading dot too (the .gitignore meaning; see ignore-rules.ts).
  const dot = options?.dot === true;
  if (typeof pattern !== 'string' || pattern.length === 0) throw new SandboxArgumentError('glob: the pattern is empty.');
  if (pattern.length > MAX_GLOB_PATTERN_CHARS)
    refuse(pattern, `is longer than ${MAX_GLOB_PATTERN_CHARS.toLocaleString('en-US')} characters`);
  const alternatives: Alternative[] = expandBraces(pattern, pattern).map((alt) => {
    let anchored = alt.includes('/');
    let text = alt.startsWith('./') ? alt.slice(2) : alt;
    if (text.startsWith('/')) text = text.slice(1);
    if (text.endsWith('/')) text = text.slice(0, -1); // a trailing slash names a folder: match what is below it
    const raw = text.split('/').filter((s, i, all) => s !== '' || all.length === 1);
    const segments = raw.map(parseSegment);
    if (alt.endsWith('/') && alt.length > 1) {
      segments.push({ kind: 'globstar' });
      anchored = true;
    }
    // `**` twice in a row is the same as once.
    const deduped = segments.filter((s, i) => !(s.kind === 'globstar' && segments[i - 1]?.kind === 'globstar'));
    return { segments: deduped, anchored };
  });
  return {
    pattern,
    test(path: string): boolean {
      const parts = path.split('/').filter((p) => p !== '' && p !== '.');
      if (parts.length === 0) return false;
      const name = parts[parts.length - 1]!;
      return alternatives.some((alt) => matchSegments(alt.segments, alt.anchored ? parts : [name], dot));
    },
  };
}
