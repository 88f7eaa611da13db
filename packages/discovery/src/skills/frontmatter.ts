/** A parsed `SKILL.md`: its frontmatter fields and the body after it. */
export interface ParsedSkillFile {
  /** Top-level scalar fields of the YAML frontmatter (strings; lists joined by ", "). */
  fields: Record<string, string>;
  /** The Markdown after the frontmatter. */
  body: string;
}

function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    try {
      return JSON.parse(v) as string;
    } catch {
      return v.slice(1, -1);
    }
  }
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  return v;
}

/**
 * Reads the YAML frontmatter of a `SKILL.md` (the subset skills use: `key: value`, quoted values,
 * `|` and `>` block scalars, and indented continuation lines). Returns `undefined` when the file
 * does not start with a `---` frontmatter block.
 */
export function parseFrontmatter(text: string): ParsedSkillFile | undefined {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!normalized.startsWith('---\n')) return undefined;
  const end = normalized.indexOf('\n---', 4);
  if (end === -1) return undefined;
  const header = normalized.slice(4, end);
  const afterMarker = normalized.indexOf('\n', end + 4);
  const body = afterMarker === -1 ? '' : normalized.slice(afterMarker + 1);
  const fields: Record<string, string> = {};
  const lines = header.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const match = /^([A-Za-z0-9_-]+):(.*)$/.exec(line);
    if (!match) continue;
    const key = match[1] as string;
    const rest = (match[2] as string).trim();
    const continuation: string[] = [];
    while (i + 1 < lines.length && (/^\s+\S/.test(lines[i + 1] as string) || (lines[i + 1] as string).trim() === '')) {
      continuation.push((lines[++i] as string).trim());
    }
    while (continuation.length > 0 && continuation.at(-1) === '') continuation.pop();
    if (rest === '|' || rest === '|-') fields[key] = continuation.join('\n');
    else if (rest === '>' || rest === '>-' || rest === '') {
      const items = continuation.filter((l) => l.startsWith('- '));
      fields[key] = items.length > 0 && items.length === continuation.filter((l) => l !== '').length
        ? items.map((l) => unquote(l.slice(2))).join(', ')
        : continuation.join(' ').replace(/\s+/g, ' ').trim();
    } else fields[key] = [unquote(rest), ...continuation].join(' ').trim();
  }
  return { fields, body };
}
