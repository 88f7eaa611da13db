import { createOpenAI } from '@ai-sdk/openai';
import type { EmbeddingModel } from 'ai';
import { AgentStartupError, ArgumentError } from './errors.js';

/** An AI SDK embedding model object (what `createToolIndex` and `tool_search` take). */
export type HostEmbeddingModel = Exclude<EmbeddingModel, string>;

/**
 * `--embedding-model openai:MODEL` → the embedding model `tool_search` fuses with its lexical ranking
 * (opt-in; without it tool search is lexical). Reads `OPENAI_API_KEY` and, for another endpoint,
 * `OPENAI_BASE_URL`. Tool vectors are cached in the run's data folder.
 *
 * @throws ArgumentError for another provider or no model id; AgentStartupError (stage `parameters`) without a key.
 */
export function createEmbeddingModel(spec: string, env: Record<string, string | undefined> = process.env): HostEmbeddingModel {
  const at = spec.indexOf(':');
  const provider = at < 0 ? spec : spec.slice(0, at);
  const modelId = at < 0 ? '' : spec.slice(at + 1);
  if (provider !== 'openai' || modelId.length === 0)
    throw new ArgumentError(
      `--embedding-model must be openai:MODEL, e.g. openai:text-embedding-3-small (got "${spec}"); OPENAI_BASE_URL points it at any OpenAI-compatible /v1/embeddings.`,
    );
  const apiKey = env['OPENAI_API_KEY'];
  if (!apiKey)
    throw new AgentStartupError('parameters', `--embedding-model ${spec} needs an API key, and OPENAI_API_KEY is not set.`, {
      fix: 'export OPENAI_API_KEY=... (or leave out --embedding-model: tool_search then ranks lexically).',
    });
  const baseURL = env['OPENAI_BASE_URL'];
  return createOpenAI({ apiKey, ...(baseURL ? { baseURL } : {}) }).embedding(modelId);
}
