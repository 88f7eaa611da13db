import { SandboxArgumentError } from '@aibuddy/sandbox';

function escapeRe(ch: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(ch) ? `\\${ch}` : ch;
}

/**
 * Compiles a glob to a regular expression over `/`-separated relative paths: `**` spans folders,
 * `*` and `?` stay within one name, `[...]` is a class, `{a,b}` alternatives (nestable). Wildcards
 * do not match a leading dot unless the pattern spells it, as in most shells.
 */
export function globToRegExp(pattern: string): RegExp {
  if (pattern.length === 0) throw new SandboxArgumentError('glob: the pattern is empty.');
  if (pattern.length > 1000) throw new SandboxArgumentError('glob: the pattern is longer than 1,000 characters.');
  let re = '';
  let depth = 0;
  let i = 0;
  const atSegmentStart = () => i === 0 || pattern[i - 1] === '/';
  while (i < pattern.length) {
    const ch = pattern[i]!;
    if (ch === '*') {
      if (pattern[i + 1] === '*' && atSegmentStart() && (pattern[i + 2] === '/' || i + 2 === pattern.length)) {
        // `**/` matches zero or more folders; a trailing `**` matches everything below.
        if (i + 2 === pattern.length) {
          re += '(?:(?!\\.)[^/]*(?:/(?!\\.)[^/]*)*)?';
          i += 2;
        } else {
          re += '(?:(?!\\.)[^/]*/)*';
          i += 3;
        }
        continue;
      }
      re += atSegmentStart() ? '(?!\\.)[^/]*' : '[^/]*';
      while (pattern[i] === '*') i++;
      continue;
    }
    if (ch === '?') {
      re += atSegmentStart() ? '(?!\\.)[^/]' : '[^/]';
      i++;
      continue;
    }
    if (ch === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close === -1) {
        re += '\\[';
        i++;
        continue;
      }
      let body = pattern.slice(i + 1, close);
      const negate = body.startsWith('!') || body.startsWith('^');
      if (negate) body = body.slice(1);
      body = body.replace(/\\/g, '\\\\').replace(/\]/g, '\\]');
      re += negate ? `[^/${body}]` : `[${body}]`;
      i = close + 1;
      continue;
    }
    if (ch === '{') {
      depth++;
      re += '(?:';
      i++;
      continue;
    }
    if (ch === '}' && depth > 0) {
      depth--;
      re += ')';
      i++;
      continue;
    }
    if (ch === ',' && depth > 0) {
      re += '|';
      i++;
      continue;
    }
    if (ch === '\\' && i + 1 < pattern.length) {
      re += escapeRe(pattern[i + 1]!);
      i += 2;
      continue;
    }
    re += escapeRe(ch);
    i++;
  }
  if (depth > 0) throw new SandboxArgumentError(`glob: unbalanced "{" in pattern "${pattern}".`);
  try {
    return new RegExp(`^${re}$`);
  } catch (error) {
    throw new SandboxArgumentError(`glob: invalid pattern "${pattern}".`, { cause: error });
  }
}
