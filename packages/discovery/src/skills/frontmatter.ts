import { parseDocument } from 'yaml';

/** A parsed `SKILL.md`: its frontmatter and the body after it. */
export interface ParsedSkillFile {
  /** Top-level scalar fields of the frontmatter as text (lists of scalars joined by ", "; trimmed). */
  fields: Record<string, string>;
  /** The whole frontmatter as YAML parsed it (nested `metadata:`, lists, numbers, ...). */
  data: Record<string, unknown>;
  /** The Markdown after the frontmatter. */
  body: string;
  /** Why the frontmatter is not valid YAML (or not a mapping), when it is not; `fields` is then empty. */
  error?: string;
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => ['string', 'number', 'boolean'].includes(typeof v)))
    return value.map(String).join(', ');
  return undefined;
}

/**
 * Reads the YAML frontmatter of a `SKILL.md` with the `yaml` package, so that everything YAML allows
 * (comments, nested `metadata:`, flow lists `[a, b]`, block scalars, anchors) reads as YAML means it.
 * Returns `undefined` when the file does not start with a `---` frontmatter block.
 */
export function parseFrontmatter(text: string): ParsedSkillFile | undefined {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!normalized.startsWith('---\n')) return undefined;
  const end = normalized.indexOf('\n---', 3);
  if (end === -1) return undefined;
  const header = normalized.slice(4, end + 1);
  const afterMarker = normalized.indexOf('\n', end + 4);
  const body = afterMarker === -1 ? '' : normalized.slice(afterMarker + 1);
  // Aliases are capped so that a "billion laughs" header cannot blow up memory.
  const document = parseDocument(header, { prettyErrors: false });
  if (document.errors.length > 0) {
    return { fields: {}, data: {}, body, error: document.errors[0]!.message.split('\n')[0]! };
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    return { fields: {}, data: {}, body, error: (error as Error).message };
  }
  if (value === null || value === undefined) return { fields: {}, data: {}, body };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { fields: {}, data: {}, body, error: 'the frontmatter is not a mapping of keys to values' };
  }
  const data = value as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const [key, v] of Object.entries(data)) {
    const textValue = asText(v);
    if (textValue !== undefined) fields[key] = textValue;
  }
  return { fields, data, body };
}
