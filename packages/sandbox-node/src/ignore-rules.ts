import { compileGlob, type GlobMatcher } from './glob-pattern.js';

/** Ignore files honoured by both grep engines, in rising precedence within one folder (ripgrep's order). */
export const IGNORE_FILES = ['.gitignore', '.ignore', '.rgignore'] as const;
/** An ignore file larger than this is not read (no real one is). */
export const MAX_IGNORE_FILE_BYTES = 256 * 1024;

/** One line of an ignore file. */
interface Rule {
  glob: GlobMatcher;
  /** `!pattern`: re-includes what an earlier rule ignored. */
  negate: boolean;
  /** `pattern/`: applies to folders only. */
  dirOnly: boolean;
}

/**
 * Parses `.gitignore` syntax: `#` comments, `!` negation, a trailing `/` for folders only, `\`
 * escapes; a pattern with a `/` (other than a trailing one) is anchored at the ignore file's
 * folder, one without matches a name at any depth below it. Patterns are compiled with the
 * linear-time glob matcher (wildcards match leading dots, as in git); a line that does not compile
 * is skipped, as git skips what it cannot parse.
 */
export function parseIgnoreFile(text: string): Rule[] {
  const rules: Rule[] = [];
  for (let line of text.split(/\r?\n/)) {
    if (line === '' || line.startsWith('#')) continue;
    line = line.replace(/(?<!\\)\s+$/, '');
    let negate = false;
    if (line.startsWith('!')) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
    let dirOnly = false;
    if (line.endsWith('/')) {
      dirOnly = true;
      line = line.slice(0, -1);
    }
    if (line === '' || line === '/') continue;
    // A slash anywhere but at the end anchors the pattern at the ignore file's folder.
    const pattern = line.includes('/') && !line.startsWith('/') ? `/${line}` : line;
    try {
      rules.push({ glob: compileGlob(pattern, { dot: true }), negate, dirOnly });
    } catch {
      // unusable line
    }
  }
  return rules;
}

/**
 * The ignore rules met so far on a walk, by folder (`''` for the folder the paths are relative
 * to). The deepest folder with a matching rule decides, and within a folder the last matching
 * rule, as in git and ripgrep. Ignoring a folder ignores everything below it (the walk does not
 * enter it), so a negation cannot re-include a file in an ignored folder.
 */
export class IgnoreRules {
  private readonly byFolder = new Map<string, Rule[]>();

  /** Adds the rules of the ignore files of one folder (appended: later files take precedence). */
  add(folder: string, rules: Rule[]): void {
    if (rules.length === 0) return;
    this.byFolder.set(folder, [...(this.byFolder.get(folder) ?? []), ...rules]);
  }

  /** Whether any rules are known. */
  get empty(): boolean {
    return this.byFolder.size === 0;
  }

  /** Whether the path (relative to the walk's start, `/`-separated) is ignored. */
  ignored(rel: string, isDir: boolean): boolean {
    let folder = rel;
    for (;;) {
      const cut = folder.lastIndexOf('/');
      folder = cut === -1 ? '' : folder.slice(0, cut);
      const rules = this.byFolder.get(folder);
      if (rules) {
        const sub = folder === '' ? rel : rel.slice(folder.length + 1);
        for (let i = rules.length - 1; i >= 0; i--) {
          const rule = rules[i]!;
          if (rule.dirOnly && !isDir) continue;
          if (rule.glob.test(sub)) return !rule.negate;
        }
      }
      if (folder === '') return false;
    }
  }
}
