// Test harness for tool packages: a real Node sandbox on a fresh temporary folder, and a way to
// run scripted model steps through generateText with the tools of one config.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, stepCountIs } from 'ai';
import { resolveToolSet } from '@aibuddy/registry';
import type { ServerToolConfig } from '@aibuddy/registry';
import { createAiTools } from '@aibuddy/runtime';
import type { CreateAiToolsOptions, RuntimeEvent } from '@aibuddy/runtime';
import type { ISandbox } from '@aibuddy/sandbox';
import type { NodeSandboxConfig } from '@aibuddy/sandbox-node';
import { createNodeSandbox } from '@aibuddy/sandbox-node';
import { lastToolResult, scriptedModel } from '@aibuddy/test-utils';
import type { ScriptStep } from '@aibuddy/test-utils';

export interface Workspace {
  root: string;
  sandbox: ISandbox;
  dispose(): Promise<void>;
}

export async function createWorkspace(config: Partial<NodeSandboxConfig> = {}): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), 'aibuddy-tools-'));
  const sandbox = await createNodeSandbox({ type: 'node', root: dir, ...config });
  return {
    root: sandbox.root,
    sandbox,
    dispose: async () => {
      await sandbox.close?.();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface RunResult {
  model: ReturnType<typeof scriptedModel>;
  events: Array<RuntimeEvent & { at: number }>;
  /** The tool result for a call id as the NEXT model call saw it (text of the model view). */
  seen(id: string): { type: string; text: string };
}

/** Runs scripted steps through generateText with the given config's tools; the last step is a text step. */
export async function runSteps(
  config: ServerToolConfig,
  sandbox: ISandbox,
  steps: ScriptStep[],
  options: Omit<CreateAiToolsOptions, 'onEvent'> & { abortSignal?: AbortSignal } = {},
): Promise<RunResult> {
  const events: Array<RuntimeEvent & { at: number }> = [];
  const set = await resolveToolSet({ configs: [config], services: { sandbox } });
  const { abortSignal, ...rest } = options;
  const tools = createAiTools(set, { ...rest, onEvent: (e) => events.push({ ...e, at: Date.now() }) });
  const model = scriptedModel([...steps, { text: 'done' }]);
  await generateText({
    model,
    tools,
    prompt: 'go',
    stopWhen: stepCountIs(steps.length + 2),
    ...(abortSignal ? { abortSignal } : {}),
  });
  return {
    model,
    events,
    seen: (id) => {
      const result = lastToolResult(model, id);
      if (!result) throw new Error(`no tool result for ${id} in the last prompt`);
      const value = result.output.value;
      return { type: result.output.type, text: typeof value === 'string' ? value : JSON.stringify(value) };
    },
  };
}

/** One call per step. */
export function calls(...list: Array<[id: string, toolName: string, input: unknown]>): ScriptStep[] {
  return list.map(([id, toolName, input]) => ({ toolCalls: [{ id, toolName, input }] }));
}

/**
 * The real sandbox with another actor's action run right after one of its methods (a person
 * editing a file right after the agent read it, a concurrent writer). Not a fake: every call
 * still goes to the real adapter.
 */
export function withActor<K extends 'readFile' | 'writeFile' | 'editFile'>(
  sandbox: ISandbox,
  method: K,
  after: (...args: Parameters<ISandbox[K]>) => Promise<void> | void,
): ISandbox {
  const wrapped = Object.create(sandbox) as ISandbox;
  (wrapped as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
    const result = await (sandbox[method] as (...a: unknown[]) => Promise<unknown>).apply(sandbox, args);
    await after(...(args as Parameters<ISandbox[K]>));
    return result;
  };
  return wrapped;
}
