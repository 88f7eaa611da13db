/**
 * What both grep engines share: the limits and settings of a run, the glob filter, and how the
 * lines printed for a file become matches (context merged the way ripgrep merges it).
 */
import type { GrepMatch } from '@aibuddy/sandbox';
import { compileGlob } from './glob-pattern.js';
import type { GrepLine } from './grep-worker.js';
import { lineCutAt, MAX_LINE_CHARS } from './read-file.js';

/** Files larger than this are skipped by the JavaScript engine (ripgrep streams them). */
export const JS_GREP_MAX_FILE_BYTES = 16 * 1024 * 1024;

/** Limits of a grep run. */
export interface GrepLimits {
  /** Time bound; the search stops and reports `truncated`. */
  timeMs: number;
  /** Entry cap of the JavaScript engine's walk. */
  maxEntries: number;
  /** ripgrep binary, or false to force the JavaScript engine. */
  ripgrep: string | false;
  /** bubblewrap binary that confines ripgrep; without a working one the JavaScript engine is used. */
  bubblewrap: string;
}

/** The checked options of one search. */
export interface GrepSettings {
  limit: number;
  context: number;
  ignoreCase: boolean;
  glob: string | undefined;
  filter: ((relToTarget: string) => boolean) | undefined;
  signal: AbortSignal | undefined;
}

function cut(text: string): string {
  return text.length > MAX_LINE_CHARS ? `${text.slice(0, lineCutAt(text, MAX_LINE_CHARS))}… [line cut]` : text;
}

/**
 * Builds matches from the lines printed for one file, in line order, the way ripgrep merges
 * context: a line is printed once — as a match when it matches, even inside another match's
 * context — and a context line between two matches belongs to the earlier one's `after`, never
 * also to the later one's `before`.
 */
export function toMatches(path: string, lines: readonly GrepLine[], context: number, out: GrepMatch[]): void {
  let claimed = 0; // highest line number already given to a match or its context
  lines.forEach((l, k) => {
    if (!l.match) return;
    const match: GrepMatch = { path, line: l.line, text: cut(l.text) };
    if (context > 0) {
      const before: { line: number; text: string }[] = [];
      for (let j = k - 1; j >= 0 && !lines[j]!.match && lines[j]!.line >= l.line - context && lines[j]!.line > claimed; j--) {
        before.unshift({ line: lines[j]!.line, text: cut(lines[j]!.text) });
      }
      const after: { line: number; text: string }[] = [];
      for (let j = k + 1; j < lines.length && !lines[j]!.match && lines[j]!.line <= l.line + context; j++) {
        after.push({ line: lines[j]!.line, text: cut(lines[j]!.text) });
      }
      match.before = before;
      match.after = after;
      claimed = after.length > 0 ? after[after.length - 1]!.line : l.line;
    } else claimed = l.line;
    out.push(match);
  });
}

/** Matches in path order, then line order (both engines finish files out of order). */
export function sortMatches(matches: GrepMatch[]): GrepMatch[] {
  return matches.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
}

/**
 * grep's `glob` filter, the same for both engines: `compileGlob`'s meaning, relative to `path`
 * (a pattern without `/` matches names at any depth); a leading `!` excludes instead.
 */
export function globFilter(glob: string | undefined): ((relToTarget: string) => boolean) | undefined {
  if (glob === undefined) return undefined;
  const negate = glob.startsWith('!');
  const matcher = compileGlob(negate ? glob.slice(1) : glob);
  return (rel) => matcher.test(rel) !== negate;
}

/** Why a search that hit its time bound shows only part of the matches. */
export function stoppedNote(timeMs: number): string {
  return `the search stopped at its time bound of ${timeMs} ms; the matches found until then are shown`;
}
