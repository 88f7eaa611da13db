/** Property names and descriptions found in a JSON Schema, recursively, for matching only. */
export interface SchemaText {
  /** Property names ("user_id", "startDate"), outermost first. */
  names: string[];
  /** Property descriptions and titles. */
  descriptions: string[];
}

const MAX_DEPTH = 6;
// A schema is model-facing metadata; cap what we read so a pathological schema cannot stall indexing.
const MAX_PROPERTIES = 200;

/** Collects property names and descriptions from `schema` (objects, arrays, anyOf/oneOf/allOf). */
export function schemaText(schema: unknown): SchemaText {
  const out: SchemaText = { names: [], descriptions: [] };
  walk(schema, out, 0);
  return out;
}

/**
 * {@link schemaText} into `out`, which is emptied first: the index build reuses one pair of arrays for
 * every tool instead of allocating three objects per tool.
 */
export function collectSchemaText(schema: unknown, out: SchemaText): void {
  out.names.length = 0;
  out.descriptions.length = 0;
  walk(schema, out, 0);
}

const COMBINATORS = ['anyOf', 'oneOf', 'allOf'] as const;

function walk(schema: unknown, out: SchemaText, depth: number): void {
  if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH || out.names.length >= MAX_PROPERTIES) return;
  const s = schema as Record<string, unknown>;
  const props = s['properties'];
  if (props && typeof props === 'object') {
    const record = props as Record<string, unknown>;
    // Object.keys order = Object.entries order, without a [key, value] pair per property.
    for (const key of Object.keys(record)) {
      if (out.names.length >= MAX_PROPERTIES) return;
      const value = record[key];
      out.names.push(key);
      if (value && typeof value === 'object') {
        const v = value as Record<string, unknown>;
        if (typeof v['description'] === 'string') out.descriptions.push(v['description']);
        if (typeof v['title'] === 'string') out.descriptions.push(v['title']);
        walk(v, out, depth + 1);
      }
    }
  }
  if (s['items']) walk(s['items'], out, depth + 1);
  for (const key of COMBINATORS) {
    const list = s[key];
    if (Array.isArray(list)) for (const sub of list) walk(sub, out, depth + 1);
  }
}

// Capped like the properties: a pathological schema cannot stall indexing. A longer "name" is not a
// parameter name anyone calls a tool with; it is skipped, not read.
const MAX_REQUIRED = 50;
const MAX_REQUIRED_NAME_CHARS = 128;

/** The schema's required top-level parameter names (strings of 1–128 characters, at most {@link MAX_REQUIRED}). */
export function requiredNames(schema: unknown): readonly string[] | undefined {
  const required = schema && typeof schema === 'object' ? (schema as { required?: unknown }).required : undefined;
  if (!Array.isArray(required) || required.length === 0) return undefined;
  return required
    .slice(0, MAX_REQUIRED)
    .filter((p): p is string => typeof p === 'string' && p.length > 0 && p.length <= MAX_REQUIRED_NAME_CHARS);
}
