import { wrapLanguageModel } from 'ai';
import type { LanguageModelMiddleware } from 'ai';
import type { LanguageModelV3 } from './language-model-v3.js';

/** The prompt of one model call, exactly as the provider receives it. */
export type ModelPrompt = Parameters<LanguageModelV3['doGenerate']>[0]['prompt'];

/** A model call is about to be made: what it is offered and sent. */
export interface ModelRequestEvent {
  type: 'model-request';
  /** 0-based index of the model call in this run. */
  step: number;
  /** Names of the tools the model was offered in this call (after `activeTools`). */
  tools: string[];
  /** The prompt exactly as sent (after context rebuild). */
  messages: ModelPrompt;
}

/**
 * Wraps a model so that every call emits a `model-request` event with the step number, the names
 * of the tools it is offered (after `activeTools`) and the prompt exactly as sent. The events are
 * taken at the model boundary, after the AI SDK and any `prepareStep` (context rebuild, deferred
 * tools) have built the request, so a log shows what the provider really got.
 */
export function withModelRequestEvents(model: LanguageModelV3, emit: (event: ModelRequestEvent) => void): LanguageModelV3 {
  let step = 0;
  const middleware: LanguageModelMiddleware = {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => {
      emit({ type: 'model-request', step: step++, tools: (params.tools ?? []).map((t) => t.name), messages: params.prompt });
      return params;
    },
  };
  return wrapLanguageModel({ model, middleware }) as LanguageModelV3;
}
