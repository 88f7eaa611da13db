import './sandbox-service.js';

export { createShellToolConfig, shellToolConfig } from './shell-config.js';
export type { ShellToolConfigOptions } from './shell-config.js';
export {
  createExecuteTool,
  DEFAULT_EXECUTE_TIMEOUT_MS,
  EXECUTE_GRACE_MS,
  EXECUTE_MAX_COMMAND_BYTES,
  EXECUTE_MAX_MODEL_CHARS,
  executeInputSchema,
  MAX_EXECUTE_TIMEOUT_MS,
} from './execute-tool.js';
export type { ExecuteInput, ExecuteToolOptions } from './execute-tool.js';
export { formatExecuteModelView } from './exec-result.js';
export type { ExecuteModelView, ExecuteOutput } from './exec-result.js';
export { assessCommandImpact } from './command-impact.js';
export { DEFAULT_COMMAND_IMPACT_RULES } from './command-impact-rules.js';
export type { AssessCommandImpactOptions, CommandImpactContext, CommandImpactRule } from './command-impact.js';
export { classifyCommand } from './classify-command.js';
export type { AllowRule, ClassifyCommandOptions, CommandClassification, CommandFinding } from './classify-command.js';
export { CommandPolicyError, createCommandPolicy, DEVELOPMENT_ALLOW_RULES, parseAllowRule } from './command-policy.js';
export type { CommandPolicy, CommandPolicyOptions } from './command-policy.js';
export { HARMLESS_PROGRAMS } from './harmless-programs.js';
export type { ProgramCheck, ProgramChecker, Verdict } from './program-checks.js';
export { createLinkResolver } from '@aibuddy/sandbox';
export { basename, effectiveArgv } from './effective-argv.js';
export { parseShellCommand, parseShellScript } from './parse-shell.js';
export type { ShellCommand, ShellRedirection, ShellScript, ShellWord, ShellWordKind } from './shell-syntax.js';
export { OUTPUT_COALESCE_CHARS, OUTPUT_COALESCE_MS, OutputCoalescer } from './output-coalescer.js';
export { allowRulesFileSchema, loadAllowRules } from './allow-rules-file.js';
export type { AllowRuleSource, LoadAllowRulesOptions, LoadedAllowRules } from './allow-rules-file.js';
