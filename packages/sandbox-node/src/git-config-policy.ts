/**
 * Which git config entries a command may add to a repository of the workspace. Everything that
 * makes git run a program (core.fsmonitor, core.hooksPath, core.sshCommand, core.pager/editor,
 * aliases, filter and diff drivers, credential helpers, includes, …) is NOT on this list, so an
 * allow-list rather than a deny-list: a key git adds tomorrow is refused until someone reads it.
 */
const ALLOWED_KEYS = new Set([
  'core.repositoryformatversion',
  'core.filemode',
  'core.bare',
  'core.logallrefupdates',
  'core.ignorecase',
  'core.precomposeunicode',
  'core.symlinks',
  'core.autocrlf',
  'core.eol',
  'core.quotepath',
  'user.name',
  'user.email',
  'init.defaultbranch',
  'extensions.objectformat',
  'extensions.worktreeconfig',
  'branch.*.remote',
  'branch.*.merge',
  'branch.*.rebase',
  'remote.*.url',
  'remote.*.fetch',
  'remote.*.pushurl',
  'submodule.*.url',
  'submodule.*.active',
  'submodule.*.path',
]);

/** One `section.key = value` entry of a git config file, normalized. */
export interface ConfigEntry {
  /** `section.key` or `section.*.key` (subsection replaced by `*`), lower case: the allow-list key. */
  pattern: string;
  /** The section header line as written (re-emitted when sanitising). */
  header: string;
  /** The entry's line as written. */
  line: string;
}

/** Result of parsing: the entries, and whether some line could not be understood (then: unsafe). */
export interface ParsedConfig {
  entries: ConfigEntry[];
  unparsable: boolean;
}

const SECTION = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(?:[#;].*)?$/;
const KEY = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=(.*))?$/;

/**
 * A conservative parser of git's config syntax: sections, subsections and simple `key = value`
 * lines. Anything it does not recognise (continuation lines, `[section.sub]` legacy headers,
 * entries on a header's line) marks the file unparsable, which the guard treats as unsafe.
 */
export function parseGitConfig(text: string): ParsedConfig {
  const entries: ConfigEntry[] = [];
  let unparsable = false;
  let section: string | undefined;
  let header = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    if (line.endsWith('\\')) {
      unparsable = true;
      continue;
    }
    const sec = SECTION.exec(line);
    if (sec) {
      const name = sec[1]!.toLowerCase();
      section = sec[2] === undefined ? name : `${name}.*`;
      if (sec[2] === undefined && name.includes('.')) unparsable = true; // legacy [section.sub]
      header = raw;
      continue;
    }
    const key = KEY.exec(line);
    if (!key || section === undefined) {
      unparsable = true;
      continue;
    }
    entries.push({ pattern: `${section}.${key[1]!.toLowerCase()}`, header, line: raw });
  }
  return { entries, unparsable };
}

/** Whether an entry may be added by a command. */
export function entryAllowed(entry: ConfigEntry): boolean {
  return ALLOWED_KEYS.has(entry.pattern);
}

function signature(entry: ConfigEntry): string {
  return `${entry.header.trim().toLowerCase()}\n${entry.line.trim()}`;
}

/**
 * Whether `after` is acceptable given `before` (undefined for a new repository): every entry not
 * on the allow-list must already have been there, with the same value, before the command.
 */
export function configAcceptable(after: string, before: string | undefined): boolean {
  const parsed = parseGitConfig(after);
  if (parsed.unparsable) return before !== undefined && after === before;
  const known = new Set(before === undefined ? [] : parseGitConfig(before).entries.map(signature));
  return parsed.entries.every((entry) => entryAllowed(entry) || known.has(signature(entry)));
}

/** A config with only the allowed entries of `text` (for a new repository whose config was not). */
export function sanitizeGitConfig(text: string): string {
  const lines: string[] = [];
  let lastHeader: string | undefined;
  for (const entry of parseGitConfig(text).entries) {
    if (!entryAllowed(entry)) continue;
    if (entry.header !== lastHeader) {
      lines.push(entry.header.trim());
      lastHeader = entry.header;
    }
    lines.push(`\t${entry.line.trim()}`);
  }
  return lines.length === 0 ? '[core]\n\trepositoryformatversion = 0\n' : `${lines.join('\n')}\n`;
}
