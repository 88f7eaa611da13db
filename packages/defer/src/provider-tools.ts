// The provider-native search tools, from optional peer dependencies. A team on one provider installs
// only that provider's package: each is loaded once with a plain `import()` and only the native path
// that needs it requires it to be there. The shapes are written out structurally so that no type of
// either package reaches this package's declarations.
import type { Tool } from 'ai';

interface AnthropicModule {
  anthropic: { tools: { toolSearchBm25_20251119(): unknown; toolSearchRegex_20251119(): unknown } };
}
interface OpenAIModule {
  openai: { tools: { toolSearch(): unknown } };
}

type Loaded<M> = { module: M } | { error: unknown };

async function load<M>(specifier: string): Promise<Loaded<M>> {
  try {
    return { module: (await import(specifier)) as M };
  } catch (error) {
    return { error };
  }
}

// Top-level await: both attempts start at module load, so `createDeferredTools` stays synchronous.
const [anthropicModule, openaiModule] = await Promise.all([
  load<AnthropicModule>('@ai-sdk/anthropic'),
  load<OpenAIModule>('@ai-sdk/openai'),
]);

function need<M>(loaded: Loaded<M>, pkg: string, path: string): M {
  if ('module' in loaded) return loaded.module;
  const reason = loaded.error instanceof Error ? loaded.error.message : String(loaded.error);
  throw new Error(
    `createDeferredTools: the ${path} path needs the optional peer dependency ${pkg}, which could not be loaded (${reason}). ` +
      `Install it next to @aibuddy/defer (npm install ${pkg}), or pass override: 'active-tools'.`,
    { cause: loaded.error },
  );
}

/** Anthropic's server-side search tool (`bm25` or `regex`). */
export function anthropicSearchTool(kind: 'bm25' | 'regex'): Tool {
  const { anthropic } = need(anthropicModule, '@ai-sdk/anthropic', 'anthropic-native');
  return (kind === 'bm25' ? anthropic.tools.toolSearchBm25_20251119() : anthropic.tools.toolSearchRegex_20251119()) as Tool;
}

/** OpenAI's hosted `tool_search`. */
export function openaiSearchTool(): Tool {
  const { openai } = need(openaiModule, '@ai-sdk/openai', 'openai-native');
  return openai.tools.toolSearch() as Tool;
}
