import type { LanguageModel } from 'ai';

/**
 * The AI SDK's language model specification v3 (what `@ai-sdk/*` providers implement), derived from
 * `ai`'s own `LanguageModel` type so that this package needs no direct dependency on `@ai-sdk/provider`.
 */
export type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
