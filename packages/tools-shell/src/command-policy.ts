import type { ImpactAssessment } from '@aibuddy/registry';
import { classifyCommand } from './classify-command.js';
import type { AllowRule, CommandClassification } from './classify-command.js';
import { assessCommandImpact } from './command-impact.js';
import type { CommandImpactRule } from './command-impact.js';
import { parseShellScript } from './parse-shell.js';

const commandPolicyErrorMarker = Symbol.for('aibuddy.tools-shell.CommandPolicyError');

/** An allow rule that cannot be used; the message names the rule and how to write it. */
export class CommandPolicyError extends Error {
  private readonly [commandPolicyErrorMarker] = true;
  override readonly name: string = 'CommandPolicyError';
  /** Lifecycle stage: rules are part of authorization. */
  readonly stage = 'authorization' as const;

  /** @param message What is wrong with the rule and what to write instead. */
  constructor(message: string) {
    super(message);
  }

  /** True for any `CommandPolicyError`, from any copy of this package. */
  static isInstance(error: unknown): error is CommandPolicyError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[commandPolicyErrorMarker] === true;
  }
}

const ELEVATED = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0']);

/**
 * Reads one allow rule: a command prefix of plain words (`npm test`, `cargo build`). A trailing
 * `:*` or ` *` (Claude Code's spelling) is accepted and means the same. Refuses rules that are
 * not a single plain command, and rules for elevated commands (`sudo …` always asks).
 */
export function parseAllowRule(rule: string, source?: string): AllowRule {
  const text = rule
    .trim()
    .replace(/(:\*|\s\*)$/, '')
    .trim();
  const where = `allow rule ${JSON.stringify(rule)}${source ? ` (from ${source})` : ''}`;
  if (text === '') throw new CommandPolicyError(`${where} is empty. Write a command prefix such as "npm test".`);
  const script = parseShellScript(text);
  const [command, ...others] = script.commands;
  if (
    script.problems.length > 0 ||
    !command ||
    others.length > 0 ||
    command.redirections.length > 0 ||
    command.assignments.length > 0 ||
    command.substitutions.length > 0
  ) {
    throw new CommandPolicyError(
      `${where} is not one plain command. Write only the program and its first words, such as "npm test" (no ;, |, &&, redirections, $ or quotes around several commands).`,
    );
  }
  if (command.argv.some((w) => w.kind !== 'literal')) {
    throw new CommandPolicyError(
      `${where} contains a pattern or variable (${command.argv.find((w) => w.kind !== 'literal')!.text}). Rules match words literally; write the words themselves.`,
    );
  }
  const words = command.argv.map((w) => w.text);
  if (ELEVATED.has(words[0]!))
    throw new CommandPolicyError(
      `${where} would run commands as root without asking; elevated commands always need confirmation. Remove the rule.`,
    );
  return { rule: words.join(' '), words, ...(source ? { source } : {}) };
}

/**
 * A sensible allow list for a development workspace: running the project's tests, builds,
 * linters and type checks. Read-only git and listing need no rule (the classifier proves them
 * harmless). The risk: tests and builds run the project's own code (and its dependencies'
 * install scripts), which the agent can edit — allowing them trusts that code.
 */
export const DEVELOPMENT_ALLOW_RULES: readonly string[] = [
  'npm test',
  'npm run test',
  'npm run build',
  'npm run lint',
  'npm run typecheck',
  'pnpm test',
  'pnpm run test',
  'pnpm build',
  'pnpm run build',
  'pnpm lint',
  'pnpm run lint',
  'pnpm typecheck',
  'pnpm run typecheck',
  'yarn test',
  'yarn build',
  'yarn lint',
  // Not `npx …`: npx downloads and runs a registry package of that name when none is installed.
  'pnpm exec vitest run',
  'pnpm exec tsc --noEmit',
  'cargo test',
  'cargo build',
  'cargo check',
  'go test',
  'go build',
  'go vet',
  'pytest',
  'python -m pytest',
  'python3 -m pytest',
  'make test',
];

/** Options of {@link createCommandPolicy}. */
export interface CommandPolicyOptions {
  /** Allow rules: strings (`"npm test"`) or rules already read with {@link parseAllowRule}. */
  allow?: ReadonlyArray<string | AllowRule>;
  /** The workspace root, so that absolute paths inside it count as workspace paths. */
  workspaceRoot?: string;
  /** Workspace-relative paths nothing may write to without confirmation (besides every `.git`). */
  protectedPaths?: readonly string[];
  /** Host rules that flag commands as high impact even when harmless or allowed. */
  rules?: readonly CommandImpactRule[];
  /** Follows symlinks of write targets (see `createLinkResolver`); without it paths are judged as written. */
  resolveLinks?: (normalized: string) => string | 'outside' | 'unknown';
}

/** A command policy: allow rules plus the fail-closed classifier. */
export interface CommandPolicy {
  /** The allow rules in force. */
  readonly allow: readonly AllowRule[];
  /** Classifies a command line (run in `where.cwd`, workspace-relative, when given). */
  classify(commandLine: string, where?: { cwd?: string | undefined }): CommandClassification;
  /** The assessment for the confirmation gate, or `undefined` when the line runs without asking. */
  assess(commandLine: string, where?: { cwd?: string | undefined }): ImpactAssessment | undefined;
}

/**
 * Builds the policy `execute` uses to decide whether a command needs a person's confirmation.
 * Throws `CommandPolicyError` for an unusable rule, before anything runs.
 *
 * @example
 * const policy = createCommandPolicy({ allow: ['npm test'] });
 * policy.assess('npm test -- --watch') // undefined: allowed
 * policy.assess('npm testx')           // needs confirmation
 * policy.assess('npm test; rm -rf /')  // needs confirmation (rm is not covered)
 */
export function createCommandPolicy(options: CommandPolicyOptions = {}): CommandPolicy {
  const allow = (options.allow ?? []).map((rule) => (typeof rule === 'string' ? parseAllowRule(rule) : rule));
  const shared = {
    allow,
    ...(options.workspaceRoot ? { workspaceRoot: options.workspaceRoot } : {}),
    ...(options.protectedPaths ? { protectedPaths: options.protectedPaths } : {}),
    ...(options.resolveLinks ? { resolveLinks: options.resolveLinks } : {}),
  };
  return {
    allow,
    classify: (commandLine, where) => classifyCommand(commandLine, { ...shared, ...(where?.cwd ? { cwd: where.cwd } : {}) }),
    assess: (commandLine, where) =>
      assessCommandImpact(commandLine, {
        ...shared,
        ...(where?.cwd ? { cwd: where.cwd } : {}),
        ...(options.rules ? { rules: options.rules } : {}),
      }),
  };
}
