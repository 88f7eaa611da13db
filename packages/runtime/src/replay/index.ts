export { ReplayExhaustedError, ReplayLanguageModel } from './replay-model.js';
export type { ReplayCallOptions, ReplayModelOptions } from './replay-model.js';
export { loadReplayScript, parseReplayScript, ReplayScriptError, replayScriptSchema } from './replay-script.js';
export type { ReplayScript, ReplayStep, ReplayToolCall } from './replay-script.js';
