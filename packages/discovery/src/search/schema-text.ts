/** Property names, descriptions and example values found in a JSON Schema, recursively, for matching only. */
export interface SchemaText {
  /** Property names ("user_id", "startDate"), outermost first. */
  names: string[];
  /** Property descriptions and titles. */
  descriptions: string[];
  /**
   * The values the schema gives as examples of an argument: string `default`s and string `examples`
   * ("chicken soup", "AAPL", "facebook/bart-large"). They name the domain a tool serves, as a request's
   * quoted values do. Enum options are not read, nor the default or examples of a parameter that has
   * them (they are among them): they list the choices of a setting ("asc", "desc", "volume_usd"),
   * which many unrelated tools share.
   */
  values: string[];
}

const MAX_DEPTH = 6;
// A schema is model-facing metadata; cap what we read so a pathological schema cannot stall indexing.
const MAX_PROPERTIES = 200;
// An example value names something ("chicken soup"); a longer default is content (a prompt template,
// code) whose words would outweigh the rest of the field, so it is not read.
const MAX_VALUE_CHARS = 256;

/** Collects property names, descriptions and example values from `schema` (objects, arrays, anyOf/oneOf/allOf). */
export function schemaText(schema: unknown): SchemaText {
  const out: SchemaText = { names: [], descriptions: [], values: [] };
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
  out.values.length = 0;
  walk(schema, out, 0);
}

// `examples` is an open list; a few say what the parameter takes.
const MAX_EXAMPLES = 5;

/** A non-empty string of at most {@link MAX_VALUE_CHARS} characters is an example value; anything else is skipped. */
function pushValue(value: unknown, into: string[]): void {
  if (typeof value === 'string' && value.length > 0 && value.length <= MAX_VALUE_CHARS) into.push(value);
}

/** A property schema's example values: its string `default`, then its first string `examples`. */
function collectValues(v: Record<string, unknown>, into: string[]): void {
  pushValue(v['default'], into);
  const examples = v['examples'];
  if (Array.isArray(examples)) for (let i = 0; i < examples.length && i < MAX_EXAMPLES; i++) pushValue(examples[i], into);
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
        // A parameter with enum options is a setting: its default and examples are among the options,
        // which are not read (see `values`).
        if (!Array.isArray(v['enum'])) collectValues(v, out.values);
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
