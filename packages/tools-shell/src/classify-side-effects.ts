/**
 * Checks of a simple command beyond its program: the variables it assigns and the files its
 * redirections write or the connections they open. Findings are pushed onto the context.
 */
import { commandText, DANGEROUS_SHELL_VARS, SAFE_ENV } from './classify-context.js';
import type { Context } from './classify-context.js';
import type { ShellCommand } from './shell-syntax.js';
import { writeTargetProblem } from './workspace-path.js';

/** Flags assignments that change what commands run, or that hold text that can run commands later. */
export function checkAssignments(command: ShellCommand, ctx: Context): void {
  const bare = command.argv.length === 0;
  for (const word of command.assignments) {
    const name = word.text.slice(0, word.text.search(/\+?=|\[/));
    const value = word.text.slice(word.text.indexOf('=') + 1);
    if (bare ? DANGEROUS_SHELL_VARS.test(name) : !SAFE_ENV.test(name)) {
      ctx.findings.push({
        command: commandText(command),
        reason: bare
          ? `sets ${name}, which changes what later commands run or read`
          : `runs ${command.argv[0]?.text ?? 'the command'} with ${name} set, which can change what it runs or reads`,
        kind: 'environment',
        words: command.words,
        simple: command,
      });
    } else if (word.text.includes('[') || (word.kind === 'literal' && /\$\(|`/.test(value))) {
      // Text like 'a[$(cmd)]' runs when a later arithmetic expansion reads the variable.
      ctx.findings.push({
        command: commandText(command),
        reason: `sets ${name} to text that can run commands when the variable is later evaluated`,
        kind: 'dynamic',
        words: command.words,
        simple: command,
      });
    }
  }
}

/** Flags redirections that open network connections or write outside the ordinary workspace paths. */
export function checkRedirections(command: ShellCommand, ctx: Context): void {
  for (const r of command.redirections) {
    // bash opens network connections for /dev/tcp and /dev/udp, reading or writing.
    if (/^\/dev\/(tcp|udp)\//.test(r.target.text)) {
      ctx.findings.push({
        command: commandText(command),
        reason: `the redirection ${r.op} ${r.target.text} opens a network connection`,
        kind: 'write',
        words: command.words,
        simple: command,
      });
      continue;
    }
    const writes = r.op.includes('>') && !(r.op === '>&' && /^(\d+-?|-)$/.test(r.target.text));
    if (!writes) continue;
    const problem =
      ctx.cwdEscaped && !/^\/dev\//.test(r.target.text)
        ? `writes to ${r.target.text} after a cd that left the ordinary workspace paths`
        : writeTargetProblem(r.target, ctx);
    if (problem)
      ctx.findings.push({
        command: commandText(command),
        reason: `the redirection ${r.fd ?? ''}${r.op} ${problem}`,
        kind: 'write',
        words: command.words,
        simple: command,
      });
  }
}
