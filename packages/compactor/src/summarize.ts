import { generateText } from 'ai';
import type { LanguageModel } from 'ai';
import { headTailTrim } from './model-view.js';

/** What {@link summarizeResult} takes. */
export interface SummarizeArgs {
  /** The host-injected model that writes the summary. */
  model: LanguageModel;
  /** The tool that produced the result. */
  toolName: string;
  /** The call's input (gives the summary its purpose). */
  input: unknown;
  /** The result as the model would have seen it. */
  text: string;
  /** Its token count. */
  tokens: number;
  /** What the summary must keep (from the tool's `compact` hook). */
  focus: string | undefined;
  /** The token budget of the summary. */
  targetTokens: number;
  /** Largest input, in tokens, sent to the summarising model; longer results are cut head + tail first. */
  maxInputTokens: number;
  /** Aborts the model call (a user stop). */
  signal: AbortSignal;
}

/** Asks the injected model for a summary of one large result. Honours `signal`. */
export async function summarizeResult(args: SummarizeArgs): Promise<string> {
  const text = args.tokens > args.maxInputTokens ? headTailTrim(args.text, args.tokens, args.maxInputTokens) : args.text;
  const inputJson = JSON.stringify(args.input) ?? 'null';
  const result = await generateText({
    model: args.model,
    abortSignal: args.signal,
    maxOutputTokens: args.targetTokens,
    system:
      'You compress tool results for an AI agent. Write a faithful, dense summary of the result below: ' +
      'keep exact identifiers, paths, numbers, error messages and anything the agent is likely to need next. ' +
      'Never invent content. Plain text, no preamble.',
    prompt:
      `Tool: ${args.toolName}\nInput: ${inputJson.length > 2_000 ? `${inputJson.slice(0, 2_000)}…` : inputJson}\n` +
      (args.focus ? `Keep especially: ${args.focus}\n` : '') +
      `Budget: about ${args.targetTokens} tokens.\n\n--- result ---\n${text}`,
  });
  return result.text.trim();
}
