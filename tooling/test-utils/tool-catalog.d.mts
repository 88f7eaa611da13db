/** A generated tool: what an MCP server lists. */
export interface FixtureTool {
  /** `verb_noun`, with `_vN` when the catalogue wraps around. */
  name: string;
  /** A plain-English description naming the verb, the noun and the service. */
  description: string;
  /** A JSON Schema object with 3 to 5 typed fields; the first is required. */
  inputSchema: {
    type: 'object';
    properties: Record<string, { type: string; description: string; items?: { type: string } }>;
    required: string[];
  };
}

/** Options of {@link fixtureTool}. */
export interface FixtureToolOptions {
  /** One noun for every tool of the service (default: nouns cycle after the verbs). */
  noun?: string;
}

/** The k-th tool of a service. */
export function fixtureTool(service: string, k: number, options?: FixtureToolOptions): FixtureTool;

/** The first `count` tools of a service. */
export function fixtureTools(service: string, count: number, options?: FixtureToolOptions): FixtureTool[];
