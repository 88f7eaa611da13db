/**
 * Which MCP tool calls wait for a person's confirmation: the one place that decides it, from the
 * server's `confirm` setting and the annotations the server gives its tools.
 */
import type { ImpactAssessment } from '@aibuddy/registry';
import { cutForModel } from '../cut-for-model.js';

/** The values `confirm` accepts (see {@link McpConfirmMode}). */
export const MCP_CONFIRM_MODES = ['destructive', 'always', 'never'] as const;

/**
 * How the calls of one server's tools are confirmed:
 * - `destructive` (default): calls of tools the server marks destructive (`destructiveHint: true`
 *   and not `readOnlyHint: true`) wait for a person;
 * - `always`: every call waits (a server whose writes you want to see, or one that does not annotate);
 * - `never`: none waits, whatever the annotations say (a server you trust with every call).
 */
export type McpConfirmMode = (typeof MCP_CONFIRM_MODES)[number];

/** The MCP tool annotations read here (hints from the server about what a tool does). */
export interface McpToolAnnotations {
  /** A human-readable title. */
  title?: string;
  /** The tool does not modify its environment. */
  readOnlyHint?: boolean;
  /** The tool may delete or overwrite (meaningful only when it is not read-only). */
  destructiveHint?: boolean;
  /** Calling it again with the same input has no further effect. */
  idempotentHint?: boolean;
  /** It reaches outside the server (the web, other systems). */
  openWorldHint?: boolean;
}

/** Whether the server marks the tool as one that may delete or overwrite. */
export function isDestructiveMcpTool(annotations: McpToolAnnotations | undefined): boolean {
  return annotations?.destructiveHint === true && annotations.readOnlyHint !== true;
}

/**
 * Whether each call of a tool waits for a person's confirmation. Unannotated tools do not under
 * the default: most servers annotate nothing, and asking for each of their calls would stop every
 * unattended run; `always` is the setting for such a server when its calls matter.
 */
export function mcpCallNeedsConfirmation(mode: McpConfirmMode | undefined, annotations: McpToolAnnotations | undefined): boolean {
  if (mode === 'always') return true;
  if (mode === 'never') return false;
  return isDestructiveMcpTool(annotations);
}

/** Longest rendering of a call's input in a confirmation request. */
const MAX_TARGET_INPUT = 300;

/** What a person is asked about one call of an MCP tool: the tool, its server, the input and why. */
export function mcpCallImpact(
  tool: { originalName: string; server: string; annotations?: McpToolAnnotations | undefined },
  input: unknown,
): ImpactAssessment {
  let args = '';
  try {
    args = JSON.stringify(input) ?? '';
  } catch {
    args = '(input that cannot be shown)';
  }
  return {
    target: `${tool.originalName} ${cutForModel(args, MAX_TARGET_INPUT)}`.trim(),
    scope: `MCP server "${tool.server}"`,
    impact: isDestructiveMcpTool(tool.annotations)
      ? 'the server marks this tool as destructive: the call may delete or overwrite data'
      : `the MCP config asks for a confirmation of every call to "${tool.server}" ("confirm": "always")`,
  };
}
