import type { LanguageModel } from 'ai';

/**
 * The AI SDK's language model specification v3, derived from `ai`'s own `LanguageModel` type so the
 * host needs no direct dependency on `@ai-sdk/provider`.
 */
export type LanguageModelV3 = Extract<LanguageModel, { specificationVersion: 'v3' }>;
/** Options of one model call (prompt, tools, tool choice, abort signal, ...). */
export type LanguageModelV3CallOptions = Parameters<LanguageModelV3['doGenerate']>[0];
/** What `doGenerate` resolves to. */
export type LanguageModelV3GenerateResult = Awaited<ReturnType<LanguageModelV3['doGenerate']>>;
/** What `doStream` resolves to. */
export type LanguageModelV3StreamResult = Awaited<ReturnType<LanguageModelV3['doStream']>>;
/** One part of a model's stream. */
export type LanguageModelV3StreamPart = LanguageModelV3StreamResult['stream'] extends ReadableStream<infer P> ? P : never;
/** The prompt of one model call. */
export type LanguageModelV3Prompt = LanguageModelV3CallOptions['prompt'];
