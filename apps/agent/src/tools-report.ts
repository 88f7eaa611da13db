import type { DeferPath } from '@aibuddy/defer';
import type { DeferralDecision } from '@aibuddy/discovery';
import type { ResolvedToolSet } from '@aibuddy/registry';
import type { AllowRule } from '@aibuddy/tools-shell';

/** What `aibuddy tools --json` prints: the tool set exactly as the model sees it. */
export interface ToolsReport {
  /** The defer path in use. */
  deferPath: DeferPath;
  /** Why that path. */
  deferPathReason: string;
  /** Tools offered from the first step. */
  direct: { name: string; server?: string }[];
  /** Tools found only through `tool_search`, with the gate's reason. */
  deferred: { name: string; server: string; reason: string }[];
  /** Groups (and MCP servers) that yield nothing in this run, with the reason. */
  excluded: { key: string; reason: string }[];
  /**
   * The command rules of `execute`: allow rules (prefixes that run without confirmation, with
   * where each comes from) and the workspace paths protected besides every `.git`.
   */
  commandPolicy?: { allow: { rule: string; source: string }[]; protectedPaths: string[] };
  /**
   * How commands are confined (from the sandbox's own description): `bubblewrap`, `pid-namespace` or
   * `none`; whether a command's whole process tree dies with the call and with the host; the bounds.
   */
  isolation?: { mode: string; killsTree: boolean; reason?: string; limits?: string };
}

/** What the report is made of: the defer result, the gate's decision and the resolved groups. */
export interface ToolsReportInputs {
  /** `createDeferredTools`' result: the tools offered, the deferred names, the path and why. */
  deferred: { path: DeferPath; reason: string; deferred: readonly string[]; callSettings: { tools: object } };
  /** The gate's decision. */
  decision: DeferralDecision;
  /** Groups excluded from the resolved set, and MCP tools left out for their input schema. */
  excluded: ResolvedToolSet['excluded'];
  /** The server of each MCP tool. */
  serverOf: ReadonlyMap<string, string>;
  /** Allow rules of `execute`. */
  allow: readonly AllowRule[];
  /** Workspace paths protected besides every `.git`. */
  protectedPaths: readonly string[];
  /** The sandbox's own account of its confinement (the node adapter's `describe()`). */
  isolation: ToolsReport['isolation'];
}

/** The tool set as the model sees it, for `aibuddy tools` and the run's header. */
export function toolsReport(inputs: ToolsReportInputs): ToolsReport {
  const deferredNames = new Set(inputs.deferred.deferred);
  return {
    deferPath: inputs.deferred.path,
    deferPathReason: inputs.deferred.reason,
    direct: Object.keys(inputs.deferred.callSettings.tools)
      .filter((name) => !deferredNames.has(name))
      .map((name) => (inputs.serverOf.has(name) ? { name, server: inputs.serverOf.get(name)! } : { name })),
    deferred: inputs.decision.deferred
      .filter((d) => deferredNames.has(d.name))
      .map((d) => ({ name: d.name, server: d.server, reason: d.reason })),
    excluded: [...inputs.excluded],
    commandPolicy: {
      allow: inputs.allow.map((r) => ({ rule: r.rule, source: r.source ?? 'host' })),
      protectedPaths: ['.git (every one, at any depth)', ...inputs.protectedPaths],
    },
    ...(inputs.isolation ? { isolation: inputs.isolation } : {}),
  };
}
