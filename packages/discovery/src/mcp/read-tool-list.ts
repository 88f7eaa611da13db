import { z } from 'zod';
import type { McpServerConfig } from './config.js';
import { cutForModel } from '../cut-for-model.js';
import { mcpCallNeedsConfirmation } from './mcp-confirmation.js';
import type { McpToolAnnotations } from './mcp-confirmation.js';
import { mcpSchemaProblem } from './mcp-input-schema.js';
import { readMcpOutputSchema } from './mcp-output-schema.js';
import { normalizeMcpInputSchema } from './mcp-tool.js';
import type { McpToolInfo } from './mcp-tool.js';
import { namespaceToolName } from './tool-names.js';

/** A tool a server lists that cannot be offered, with the reason. */
export interface McpExcludedTool {
  /** The namespaced name it would have had. */
  name: string;
  /** Its name on the server. */
  tool: string;
  /** Why it is left out, as a sentence. */
  reason: string;
}

/**
 * Longest MCP tool description the model is given, in UTF-16 code units; a longer one is cut (ending
 * in "…"). A tool offered directly costs its description on every step: servers generated from
 * OpenAPI documents ship descriptions of tens of kilobytes, and a hostile one can send megabytes.
 * 2 KB keeps the first paragraphs, which say what a tool does.
 */
export const MAX_MCP_TOOL_DESCRIPTION = 2_048;

// Annotations are hints: one of the wrong type is dropped, not the tool; unknown ones are not kept.
const hint = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
const LaxAnnotations = hint(
  z.object({
    title: hint(z.string()),
    readOnlyHint: hint(z.boolean()),
    destructiveHint: hint(z.boolean()),
    idempotentHint: hint(z.boolean()),
    openWorldHint: hint(z.boolean()),
  }),
);
// The SDK's own schema rejects the whole page when one tool is malformed; we keep the good ones.
const LaxToolSchema = z.looseObject({
  name: z.unknown(),
  description: z.unknown().optional(),
  inputSchema: z.unknown().optional(),
  outputSchema: z.unknown().optional(),
  annotations: LaxAnnotations,
});

/** The annotations the server set, without the dropped ones (none left: undefined). */
function annotationsOf(raw: z.infer<typeof LaxAnnotations>): McpToolAnnotations | undefined {
  const kept = Object.entries(raw ?? {}).filter(([, value]) => value !== undefined);
  return kept.length > 0 ? (Object.fromEntries(kept) as McpToolAnnotations) : undefined;
}

/**
 * Turns a server's raw `tools/list` items into the catalogue's tools: allow / deny lists applied,
 * namespaced names, nameless and repeated tools skipped, schemas past the depth or size limit left
 * out with a reason (the server's other tools are kept), schemas normalized to a top-level object.
 */
export function readToolList(
  raw: readonly unknown[],
  server: string,
  config: Pick<McpServerConfig, 'allowTools' | 'denyTools' | 'confirm'>,
  warn: (message: string) => void,
): { tools: McpToolInfo[]; excluded: McpExcludedTool[] } {
  const allow = config.allowTools ? new Set(config.allowTools) : undefined;
  const deny = new Set(config.denyTools ?? []);
  const tools: McpToolInfo[] = [];
  const excluded: McpExcludedTool[] = [];
  const names = new Set<string>();
  const seen = new Set<string>();
  const cut: string[] = [];
  for (const item of raw) {
    const parsed = LaxToolSchema.safeParse(item);
    if (!parsed.success || typeof parsed.data.name !== 'string' || parsed.data.name === '') {
      warn(`skipped a tool without a name: ${JSON.stringify(item).slice(0, 200)}`);
      continue;
    }
    const original = parsed.data.name;
    seen.add(original);
    if (allow && !allow.has(original)) continue;
    if (deny.has(original)) continue;
    const name = namespaceToolName(server, original);
    if (names.has(name)) {
      warn(`tool "${original}" is listed twice; kept the first.`);
      continue;
    }
    const problem = mcpSchemaProblem(parsed.data.inputSchema);
    if (problem) {
      excluded.push({ name, tool: original, reason: `${problem}; the tool is left out (the server's other tools are kept)` });
      warn(`tool "${original}" is left out: ${problem}.`);
      continue;
    }
    names.add(name);
    const { schema, fallback } = normalizeMcpInputSchema(parsed.data.inputSchema);
    if (fallback) warn(`tool "${original}" has no top-level object input schema; it accepts any named arguments.`);
    const given = typeof parsed.data.description === 'string' ? parsed.data.description : '';
    if (given.length > MAX_MCP_TOOL_DESCRIPTION) cut.push(`"${original}" (${given.length} characters)`);
    const description =
      given.trim() !== '' ? cutForModel(given, MAX_MCP_TOOL_DESCRIPTION) : `${original} (tool of the MCP server "${server}")`;
    const annotations = annotationsOf(parsed.data.annotations);
    const output = readMcpOutputSchema(parsed.data.outputSchema);
    if (output.problem) warn(`tool "${original}": ${output.problem}; its results are not checked against it.`);
    tools.push({
      name,
      originalName: original,
      server,
      description,
      inputSchema: schema,
      schemaFallback: fallback,
      ...(output.schema ? { outputSchema: output.schema } : {}),
      ...(annotations ? { annotations } : {}),
      ...(mcpCallNeedsConfirmation(config.confirm, annotations) ? { confirm: true } : {}),
    });
  }
  // One warning per list, however many tools it cuts.
  if (cut.length > 0) {
    const named = cut.length > 3 ? `${cut.slice(0, 3).join(', ')} and ${cut.length - 3} more` : cut.join(', ');
    warn(
      `${cut.length} tool description${cut.length === 1 ? ' was' : 's were'} cut to ${MAX_MCP_TOOL_DESCRIPTION} characters for the model: ${named}.`,
    );
  }
  for (const wanted of allow ?? []) {
    if (!seen.has(wanted)) warn(`allowTools names "${wanted}", which the server does not offer.`);
  }
  return { tools, excluded };
}
