import { wrapLanguageModel } from 'ai';
import type { LanguageModelMiddleware } from 'ai';
import type { ModelRequestEvent } from './events.js';
import type { LanguageModelV3 } from './model-types.js';

/**
 * Wraps a model so that every call emits a `model-request` event with the step number, the names
 * of the tools it is offered (after `activeTools`) and the prompt exactly as sent. The events are
 * taken at the model boundary, after the AI SDK and the compactor have built the request.
 */
export function withModelRequestEvents(model: LanguageModelV3, emit: (event: ModelRequestEvent) => void): LanguageModelV3 {
  let step = 0;
  const middleware: LanguageModelMiddleware = {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => {
      emit({
        type: 'model-request',
        step: step++,
        tools: (params.tools ?? []).map((t) => t.name),
        messages: params.prompt,
      });
      return params;
    },
  };
  return wrapLanguageModel({ model, middleware }) as LanguageModelV3;
}
