import type { ToolResultPart } from 'ai';

/** A tool result's output as it appears in `ModelMessage`s. */
export type MessageToolOutput = ToolResultPart['output'];

/**
 * Turns one completed interaction (a question to the user, a confirmation) into the user-side
 * text that carries the decision. Return `undefined` to leave the exchange as it is.
 */
export type InteractionNormalizer = (call: { toolName: string; input: unknown }, output: MessageToolOutput) => string | undefined;

function field(value: unknown, names: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const name of names) {
    const found = (value as Record<string, unknown>)[name];
    if (found !== undefined && found !== null) return found;
  }
  return undefined;
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function outputValue(output: MessageToolOutput): unknown {
  if (output.type === 'text' || output.type === 'json') return output.value;
  if (output.type === 'content') {
    return output.value.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
  }
  return undefined;
}

/** `ask_user_question`: the question and the user's answer, as user text. */
export const normalizeAskUserQuestion: InteractionNormalizer = (call, output) => {
  const value = outputValue(output);
  if (value === undefined) return undefined;
  const question = field(call.input, ['question', 'prompt', 'message', 'questions']) ?? call.input;
  const answer = typeof value === 'string' ? value : (field(value, ['answer', 'answers', 'choice', 'response', 'text']) ?? value);
  return `You asked me (ask_user_question): ${asText(question)}\nMy answer: ${asText(answer)}`;
};

/** `confirm`: what was to be confirmed and the user's decision (approved / rejected, reason). */
export const normalizeConfirm: InteractionNormalizer = (call, output) => {
  const value = outputValue(output);
  if (value === undefined) return undefined;
  const what = field(call.input, ['question', 'message', 'action', 'impact', 'target']) ?? call.input;
  const approved = typeof value === 'boolean' ? value : field(value, ['approved', 'confirmed']);
  const reason = field(value, ['reason', 'comment', 'message']);
  const decision =
    typeof approved === 'boolean'
      ? `${approved ? 'I approve' : 'I reject'}${reason !== undefined ? ` — ${asText(reason)}` : ''}.`
      : asText(value);
  return `You asked me to confirm (confirm): ${asText(what)}\nMy decision: ${decision}`;
};

/** The interaction tools normalized by default. */
export const DEFAULT_INTERACTION_NORMALIZERS: Readonly<Record<string, InteractionNormalizer>> = {
  ask_user_question: normalizeAskUserQuestion,
  confirm: normalizeConfirm,
};
