import type { DeferredToolCatalog, ToolSearchConfigOptions, ToolSearchPresentation } from '@aibuddy/discovery';
import { createSkillsConfig, createToolSearchConfig } from '@aibuddy/discovery';
import { toolResultsConfig } from '@aibuddy/compactor';
import { unconfiguredConfig } from '@aibuddy/registry';
import type { ServerToolConfig } from '@aibuddy/registry';
import { interactionToolConfig } from '@aibuddy/runtime';
import { createFilesystemToolConfig, filesystemToolConfig } from '@aibuddy/tools-fs';
import { createShellToolConfig, shellToolConfig } from '@aibuddy/tools-shell';
import type { AllowRule } from '@aibuddy/tools-shell';

/** What the tool groups of one run are built from. */
export interface BuiltInConfigInputs {
  /** Where `tool_search` finds deferred tools. */
  catalog: DeferredToolCatalog;
  /** How `tool_search` answers the model on this run's defer path (default `schemas`). */
  toolSearchPresentation?: ToolSearchPresentation | undefined;
  /** Semantic retrieval for `tool_search`: the model, the cache folder and where warnings go. */
  toolSearchEmbedding?: Pick<ToolSearchConfigOptions, 'embeddingModel' | 'cacheDir' | 'onWarning'> | undefined;
  /** The skills folder, if any. */
  skillsDir?: string | undefined;
  /** Receives skill folders that were skipped. */
  onSkillProblems?: (problems: readonly { dir: string; reason: string }[]) => void;
  /** Allow rules of `execute`. */
  allow?: readonly AllowRule[] | undefined;
  /** Workspace-relative paths the file tools and commands need a confirmation to write (the data folder inside the workspace). */
  protectedPaths?: readonly string[] | undefined;
}

/** Every built-in config the host composes, in the order the model sees their tools. */
export function builtInConfigs(inputs: BuiltInConfigInputs): ServerToolConfig[] {
  const guarded = (inputs.allow?.length ?? 0) > 0 || (inputs.protectedPaths?.length ?? 0) > 0;
  const protectedPaths = inputs.protectedPaths ? { protectedPaths: inputs.protectedPaths } : {};
  return [
    guarded ? createFilesystemToolConfig(protectedPaths) : filesystemToolConfig,
    guarded ? createShellToolConfig({ ...(inputs.allow ? { allow: inputs.allow } : {}), ...protectedPaths }) : shellToolConfig,
    interactionToolConfig,
    createToolSearchConfig({
      catalog: inputs.catalog,
      ...(inputs.toolSearchPresentation ? { presentation: inputs.toolSearchPresentation } : {}),
      ...inputs.toolSearchEmbedding,
    }),
    inputs.skillsDir
      ? createSkillsConfig({
          dir: inputs.skillsDir,
          ...(inputs.onSkillProblems ? { onProblems: inputs.onSkillProblems as never } : {}),
        })
      : unconfiguredConfig('skills', ['view_skill'], 'no skills folder given (pass --skills DIR)'),
    toolResultsConfig,
  ];
}
