import { basename } from 'node:path';
import type { LanguageModel } from 'ai';
import { ANTHROPIC_API_ORIGIN, OPENAI_API_ORIGIN } from '@aibuddy/defer';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { AgentStartupError, ArgumentError } from './errors.js';
import { loadReplayScript, ReplayLanguageModel, ReplayScriptError } from '@aibuddy/runtime';
import type { ReplayScript } from '@aibuddy/runtime';

type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;

/** The providers the host can create models for. */
export type ModelProvider = 'replay' | 'anthropic' | 'openai' | 'openai-compatible';

/** A created model and what the host needs to know about it (the defer path depends on it). */
export interface ModelInfo {
  /** The AI SDK model. */
  model: LanguageModelV3;
  /** Which provider made it. */
  provider: ModelProvider;
  /** The provider's model id (`claude-sonnet-4-5`, the replay file name, ...). */
  modelId: string;
  /** The endpoint the provider calls (`undefined` for replay). */
  baseUrl: string | undefined;
  /** True for the built-in demo replay. */
  demo: boolean;
  /** The spec as written (`anthropic:claude-sonnet-4-5`, `replay:run.json`, `demo`). */
  spec: string;
}

/** Default endpoints of the real providers. */
const DEFAULT_BASE_URLS = { anthropic: `${ANTHROPIC_API_ORIGIN}/v1`, openai: `${OPENAI_API_ORIGIN}/v1` } as const;

/** Models used when `--model` is omitted but a key is present. */
const DEFAULT_MODELS = {
  anthropic: 'claude-sonnet-4-5',
  openai: 'gpt-5',
} as const;

/** What `createModel` reads besides the spec. */
export interface CreateModelOptions {
  /** `--base-url`. */
  baseUrl?: string;
  /** The environment to read keys and base URLs from (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** The built-in demo script, used for the spec `demo`. */
  demoScript?: ReplayScript;
}

function requireKey(env: Record<string, string | undefined>, names: string[], spec: string): string {
  for (const name of names) {
    const value = env[name];
    if (value) return value;
  }
  throw new AgentStartupError(
    'model',
    `--model ${spec} needs an API key, and ${names.join(' / ')} ${names.length > 1 ? 'are' : 'is'} not set.`,
    {
      fix: `export ${names[0]}=... (or run without --model for the offline demo).`,
    },
  );
}

/**
 * The model spec to use when `--model` is omitted: a key in the environment picks that provider's
 * default model; with no key (or when the demo is asked for) the built-in demo replay.
 */
export function defaultModelSpec(env: Record<string, string | undefined>, wantsDemo: boolean): string {
  if (wantsDemo) return 'demo';
  if (env.ANTHROPIC_API_KEY) return `anthropic:${DEFAULT_MODELS.anthropic}`;
  if (env.OPENAI_API_KEY) return `openai:${DEFAULT_MODELS.openai}`;
  return 'demo';
}

/**
 * Creates a model from a spec: `replay:FILE`, `anthropic:MODEL`, `openai:MODEL` (Responses API),
 * `openai-compatible:MODEL` (needs a base URL), or `demo` (the built-in script). Keys come from
 * `ANTHROPIC_API_KEY`, `OPENAI_API_KEY` and `OPENAI_COMPATIBLE_API_KEY`.
 */
export function createModel(spec: string, options: CreateModelOptions = {}): ModelInfo {
  const env = options.env ?? process.env;
  if (spec === 'demo') {
    if (!options.demoScript) throw new ArgumentError('the demo model needs its script.');
    return {
      model: new ReplayLanguageModel(options.demoScript, { modelId: 'demo' }),
      provider: 'replay',
      modelId: 'demo',
      baseUrl: undefined,
      demo: true,
      spec,
    };
  }
  const colon = spec.indexOf(':');
  const provider = spec.slice(0, colon);
  const id = spec.slice(colon + 1);
  if (colon <= 0 || id === '') throw new ArgumentError(`--model "${spec}" is not a model spec; write provider:MODEL.`);
  switch (provider) {
    case 'replay': {
      let script: ReplayScript;
      try {
        script = loadReplayScript(id);
      } catch (error) {
        // A bad script is a bad argument: exit 2 with the problem and the expected shape.
        throw ReplayScriptError.isInstance(error) ? new ArgumentError(error.message) : error;
      }
      return {
        model: new ReplayLanguageModel(script, { modelId: basename(id) }),
        provider: 'replay',
        modelId: basename(id),
        baseUrl: undefined,
        demo: false,
        spec,
      };
    }
    case 'anthropic': {
      const apiKey = requireKey(env, ['ANTHROPIC_API_KEY'], spec);
      const baseUrl = options.baseUrl ?? env.ANTHROPIC_BASE_URL ?? DEFAULT_BASE_URLS.anthropic;
      const model = createAnthropic({ apiKey, baseURL: baseUrl })(id) as LanguageModelV3;
      return { model, provider: 'anthropic', modelId: id, baseUrl, demo: false, spec };
    }
    case 'openai': {
      const apiKey = requireKey(env, ['OPENAI_API_KEY'], spec);
      const baseUrl = options.baseUrl ?? env.OPENAI_BASE_URL ?? DEFAULT_BASE_URLS.openai;
      const model = createOpenAI({ apiKey, baseURL: baseUrl }).responses(id) as LanguageModelV3;
      return { model, provider: 'openai', modelId: id, baseUrl, demo: false, spec };
    }
    case 'openai-compatible': {
      const baseUrl = options.baseUrl ?? env.OPENAI_COMPATIBLE_BASE_URL;
      if (!baseUrl) {
        throw new ArgumentError(`--model ${spec} needs --base-url (the endpoint, for example http://127.0.0.1:11434/v1).`);
      }
      const apiKey = env.OPENAI_COMPATIBLE_API_KEY ?? env.OPENAI_API_KEY;
      const model = createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: baseUrl,
        ...(apiKey ? { apiKey } : {}),
      }).chatModel(id) as LanguageModelV3;
      return { model, provider: 'openai-compatible', modelId: id, baseUrl, demo: false, spec };
    }
    default:
      throw new ArgumentError(
        `--model "${spec}": unknown provider "${provider}". Use replay, anthropic, openai or openai-compatible.`,
      );
  }
}
