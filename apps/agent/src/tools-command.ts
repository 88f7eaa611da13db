import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ParsedCommand } from './args.js';
import { EXIT_CODES, setUp } from './cli-setup.js';
import type { CliIO } from './cli-setup.js';
import type { ComposedAgent } from './compose.js';
import { chooseHostConfirmation } from './confirmation.js';
import { resolveDataDir } from './data-dir.js';
import { cliMessage } from './terminal-text.js';
import type { ToolsReport } from './tools-report.js';

/** One line on how commands are confined; says plainly when their process tree can outlive the call. */
export function isolationLine(report: ToolsReport): string {
  const iso = report.isolation;
  if (!iso) return 'confinement not described by this sandbox';
  const tree = iso.killsTree
    ? 'process tree dies with the call and with aibuddy'
    : 'NOT tree-killing: a daemon may outlive the call';
  return `${iso.mode} (${tree})${iso.reason ? `; ${iso.reason}` : ''}${iso.limits ? `; limits: ${iso.limits}` : ''}`;
}

function printToolsText(report: ToolsReport, write: (s: string) => void): void {
  write(`sandbox: ${isolationLine(report)}\n`);
  write(`defer path: ${report.deferPath} (${report.deferPathReason})\n`);
  write(`direct (${report.direct.length}): ${report.direct.map((t) => t.name).join(', ') || '-'}\n`);
  if (report.deferred.length > 0) {
    write(`deferred (${report.deferred.length}), found through tool_search:\n`);
    const byServer = new Map<string, { names: string[]; reason: string }>();
    for (const d of report.deferred) {
      const entry = byServer.get(d.server) ?? { names: [], reason: d.reason };
      entry.names.push(d.name);
      byServer.set(d.server, entry);
    }
    for (const [server, { names, reason }] of byServer) write(`  ${server}: ${names.join(', ')}\n    why: ${reason}\n`);
  } else write('deferred: none\n');
  if (report.excluded.length > 0) {
    write('excluded:\n');
    for (const e of report.excluded) write(`  ${e.key}: ${e.reason}\n`);
  }
  if (report.commandPolicy) {
    const { allow, protectedPaths } = report.commandPolicy;
    write(`commands: read-only commands run at once; anything else not covered by an allow rule needs confirmation\n`);
    write(`allow rules (${allow.length}):${allow.length === 0 ? ' none' : ''}\n`);
    for (const r of allow) write(`  ${r.rule}  [${r.source}]\n`);
    write(`protected paths: ${protectedPaths.join(', ')}\n`);
  }
}

/** `aibuddy tools`: the resolved tool set (`--json`: the report as the model sees it). Resolves with the exit code. */
export async function toolsCommand(parsed: Extract<ParsedCommand, { command: 'tools' }>, io: CliIO): Promise<number> {
  const setup = await setUp(parsed.options, io.env, true);
  const confirmation = chooseHostConfirmation({
    flag: parsed.options.confirm,
    interactive: io.stdin.isTTY === true,
    demo: setup.model.demo,
  });
  const warnings: string[] = [];
  let agent: ComposedAgent | undefined;
  try {
    const { composeAgent } = await import('./compose.js');
    agent = await composeAgent({
      workspace: setup.workspace,
      model: setup.model,
      ...(setup.mcpConfig ? { mcpConfig: setup.mcpConfig } : {}),
      // A listing: every server, however long it takes to start.
      mcpStartWaitMs: Number.POSITIVE_INFINITY,
      ...(parsed.options.skills ? { skillsDir: resolve(parsed.options.skills) } : {}),
      taskId: setup.taskId,
      dataDir: resolveDataDir(parsed.options.dataDir, setup.workspace, io.env),
      ...(parsed.options.capabilities ? { capabilities: parsed.options.capabilities } : {}),
      deferPath: parsed.options.deferPath,
      allow: setup.rules.allow,
      confirmation,
      onWarning: (message) => warnings.push(message),
    });
    const report = agent.report;
    if (parsed.json) io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else printToolsText(report, (s) => io.stdout.write(s));
    for (const w of warnings) io.stderr.write(`${cliMessage(w)}\n`);
    return EXIT_CODES.ok;
  } finally {
    await agent?.close();
    if (setup.temporaryWorkspace) rmSync(setup.workspace, { recursive: true, force: true });
  }
}
