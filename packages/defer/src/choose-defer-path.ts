/** How deferred tools are presented to the model. */
export type DeferPath = 'anthropic-native' | 'openai-native' | 'active-tools';

/** What the user asked for (`--defer-path`): pick by model and endpoint, force native, or force `activeTools`. */
export type DeferPathOverride = 'auto' | 'native' | 'active-tools';

/** The model in use, as the host knows it. */
export interface DeferModelInfo {
  /**
   * The provider: `anthropic`, `openai` (Responses API), `openai-compatible`, or anything else.
   * AI SDK provider ids such as `anthropic.messages`, `openai.responses` and `openai.chat` are accepted too.
   */
  provider: string;
  /** The model id, for example `claude-sonnet-4-5` or `gpt-5.4`. */
  modelId: string;
  /** The base URL the provider is pointed at; `undefined` means the provider's own default endpoint. */
  baseURL?: string | undefined;
}

/** Input of {@link chooseDeferPath}. */
export interface ChooseDeferPathInput extends DeferModelInfo {
  /** `auto` (default), `native` or `active-tools`. */
  override?: DeferPathOverride | undefined;
}

/** The chosen path and why, in a sentence for `aibuddy tools` and logs. */
export interface DeferPathChoice {
  /** The path. */
  path: DeferPath;
  /** Why this path was chosen. */
  reason: string;
}

/** The endpoints we treat as "real" (first-party) for `auto`. */
export const ANTHROPIC_API_ORIGIN = 'https://api.anthropic.com';
/** The OpenAI platform endpoint. */
export const OPENAI_API_ORIGIN = 'https://api.openai.com';

type ProviderFamily = 'anthropic' | 'openai-responses' | 'openai-chat' | 'other';

function providerFamily(provider: string): ProviderFamily {
  const p = provider.trim().toLowerCase();
  if (p === 'anthropic' || p.startsWith('anthropic.')) return 'anthropic';
  if (p === 'openai' || p === 'openai.responses') return 'openai-responses';
  if (p === 'openai.chat' || p === 'openai.completion') return 'openai-chat';
  return 'other';
}

/** True when `baseURL` is unset or points at `origin` (any path, such as `/v1`). */
function isFirstPartyEndpoint(baseURL: string | undefined, origin: string): boolean {
  if (baseURL === undefined || baseURL.trim() === '') return true;
  try {
    return new URL(baseURL).origin === origin;
  } catch {
    return false;
  }
}

/**
 * Whether an Anthropic model supports tool search (server-side or with `tool_reference` results).
 * Anthropic lists Claude Opus 4.5 and Sonnet 4.5 (and later); Haiku models and older generations are
 * not supported, so they take the `activeTools` path.
 */
export function anthropicModelSupportsToolSearch(modelId: string): boolean {
  const id = modelId.toLowerCase();
  if (id.includes('haiku')) return false;
  // claude-{opus|sonnet}-MAJOR[-MINOR][-date] (current naming) or claude-MAJOR[-MINOR]-{opus|sonnet} (older).
  const current = /claude-(opus|sonnet)-(\d+)(?:[-.](\d{1,2}))?(?!\d)/.exec(id);
  const older = /claude-(\d+)(?:[-.](\d{1,2}))?-(opus|sonnet)/.exec(id);
  const major = Number(current?.[2] ?? older?.[1] ?? NaN);
  const minor = Number(current?.[3] ?? older?.[2] ?? 0);
  if (!Number.isFinite(major)) return false;
  return major > 4 || (major === 4 && minor >= 5);
}

/**
 * Whether an OpenAI model supports the Responses API's `tool_search` with deferred tools
 * (GPT-5.4 and later).
 */
export function openaiModelSupportsToolSearch(modelId: string): boolean {
  const match = /^gpt-(\d+)(?:\.(\d+))?/.exec(modelId.toLowerCase());
  if (!match) return false;
  const major = Number(match[1]);
  const minor = Number(match[2] ?? 0);
  return major > 5 || (major === 5 && minor >= 4);
}

/**
 * Chooses how deferred tools are presented. `auto` picks a provider-native path only for a real
 * Anthropic or OpenAI (Responses API) endpoint with a model that supports tool search; Haiku, older
 * models, gateways, third-party base URLs and every other provider get `active-tools`. `native`
 * forces the provider's native path whatever the endpoint (tests against loopback servers use it),
 * and falls back to `active-tools` only when the provider has no native tool search at all.
 */
export function chooseDeferPath(input: ChooseDeferPathInput): DeferPathChoice {
  const override = input.override ?? 'auto';
  const family = providerFamily(input.provider);
  const where = input.baseURL ? ` at ${input.baseURL}` : '';

  if (override === 'active-tools') {
    return { path: 'active-tools', reason: 'forced by --defer-path active-tools' };
  }
  if (override === 'native') {
    if (family === 'anthropic') {
      return { path: 'anthropic-native', reason: `forced by --defer-path native (${input.provider}:${input.modelId}${where})` };
    }
    if (family === 'openai-responses') {
      return { path: 'openai-native', reason: `forced by --defer-path native (${input.provider}:${input.modelId}${where})` };
    }
    return {
      path: 'active-tools',
      reason: `--defer-path native was asked for, but provider "${input.provider}" has no native tool search (only Anthropic Messages and OpenAI Responses do); using activeTools`,
    };
  }

  if (family === 'anthropic') {
    if (!isFirstPartyEndpoint(input.baseURL, ANTHROPIC_API_ORIGIN)) {
      return {
        path: 'active-tools',
        reason: `base URL ${input.baseURL} is not ${ANTHROPIC_API_ORIGIN} (a gateway or third-party endpoint may not support tool search)`,
      };
    }
    if (!anthropicModelSupportsToolSearch(input.modelId)) {
      return {
        path: 'active-tools',
        reason: `model ${input.modelId} does not support Anthropic tool search (Haiku and models before Opus/Sonnet 4.5)`,
      };
    }
    return { path: 'anthropic-native', reason: `real Anthropic endpoint and ${input.modelId} supports tool search` };
  }
  if (family === 'openai-responses') {
    if (!isFirstPartyEndpoint(input.baseURL, OPENAI_API_ORIGIN)) {
      return {
        path: 'active-tools',
        reason: `base URL ${input.baseURL} is not ${OPENAI_API_ORIGIN} (a gateway or third-party endpoint may not support tool_search)`,
      };
    }
    if (!openaiModelSupportsToolSearch(input.modelId)) {
      return {
        path: 'active-tools',
        reason: `model ${input.modelId} does not support the Responses API tool_search (GPT-5.4 and later do)`,
      };
    }
    return { path: 'openai-native', reason: `real OpenAI Responses endpoint and ${input.modelId} supports tool_search` };
  }
  if (family === 'openai-chat') {
    return { path: 'active-tools', reason: 'the OpenAI Chat Completions API has no tool search (only the Responses API does)' };
  }
  return { path: 'active-tools', reason: `provider "${input.provider}" has no native tool search` };
}
