import { createInterface } from 'node:readline/promises';
import type { AuthorizationDecision, AuthorizationRequest } from '@aibuddy/runtime';
import { escapeControl, escapeControlLine } from './terminal-text.js';

/** How this run answers confirmation requests, and why (printed at start). */
export interface HostConfirmation {
  /** The runtime policy: `ask` a person, `auto-approve` or `auto-reject`. */
  policy: 'ask' | 'auto-approve' | 'auto-reject';
  /** Who answers, in words ("you, at this terminal", "--yes", ...). */
  answeredBy: string;
  /** Asks the person (policy `ask` only). */
  ask?: (request: AuthorizationRequest, signal: AbortSignal) => Promise<AuthorizationDecision>;
  /** Answers `ask_user_question` (policy `ask` only). */
  answerQuestion?: (question: { question: string; choices?: string[] }, signal: AbortSignal) => Promise<string>;
}

/** What decides the confirmation mode. */
export interface HostConfirmationOptions {
  /** `--yes` → approve, `--no` → reject, `undefined` → decide by terminal. */
  flag: 'approve' | 'reject' | undefined;
  /** Whether a person can answer at a terminal (stdin and stderr are TTYs). */
  interactive: boolean;
  /** True for the built-in demo, which answers its own confirmation when no one can. */
  demo: boolean;
  /** Where prompts are read (default `process.stdin`). */
  input?: NodeJS.ReadableStream;
  /** Where prompts are written (default `process.stderr`). */
  output?: NodeJS.WritableStream;
}

async function prompt(
  question: string,
  signal: AbortSignal,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): Promise<string> {
  const rl = createInterface({ input, output, terminal: true });
  // In raw mode readline swallows Ctrl-C; hand it to the process so it stops the run as usual.
  rl.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
  try {
    return await rl.question(question, { signal });
  } finally {
    rl.close();
  }
}

/**
 * What a person at the terminal is asked. Every field comes from the model or a tool: control
 * characters are shown escaped, or an escape sequence in a command could erase and rewrite the
 * very line being approved. The whole input follows the summary, since the target may be cut
 * (an MCP call's input after 300 characters) and the approval binds the whole input.
 */
export function confirmationText(request: AuthorizationRequest): string {
  let input: string;
  try {
    input = JSON.stringify(request.input) ?? String(request.input);
  } catch {
    input = '(an input that cannot be shown as JSON)';
  }
  const line = escapeControlLine;
  return (
    `\nConfirm ${line(request.toolName)} on ${line(request.target)} (${line(request.scope)}): ${line(request.impact)}\n` +
    `Input (${input.length.toLocaleString('en-US')} characters, in full): ${line(input)}\n` +
    'Approve? [y/N] '
  );
}

/** What a person at the terminal is asked by `ask_user_question`: the model's text, escaped as above. */
export function questionText(question: { question: string; choices?: string[] }): string {
  const choices = question.choices?.length
    ? `\n${question.choices.map((c, i) => `  ${i + 1}. ${escapeControlLine(c)}`).join('\n')}\n`
    : '\n';
  return `\n${escapeControl(question.question)}${choices}> `;
}

/**
 * Chooses how confirmation requests are answered: `--yes` approves and `--no` rejects every
 * request; otherwise a person at a terminal is asked; otherwise (no terminal) every request is
 * rejected, since nobody can answer. The built-in demo is the one exception: with no terminal
 * and no flag it approves, because its only high-impact step deletes a folder it created itself in
 * a fresh temporary workspace, and the README runs it non-interactively.
 */
export function chooseHostConfirmation(options: HostConfirmationOptions): HostConfirmation {
  if (options.flag === 'approve') return { policy: 'auto-approve', answeredBy: '--yes (every request approved)' };
  if (options.flag === 'reject') return { policy: 'auto-reject', answeredBy: '--no (every request rejected)' };
  if (options.interactive) {
    const input = options.input ?? process.stdin;
    const output = options.output ?? process.stderr;
    return {
      policy: 'ask',
      answeredBy: 'you, at this terminal',
      ask: async (request, signal) => {
        const answer = await prompt(confirmationText(request), signal, input, output);
        const approved = /^y(es)?$/i.test(answer.trim());
        return approved
          ? { approved }
          : { approved, reason: answer.trim() && !/^no?$/i.test(answer.trim()) ? answer.trim() : 'the user said no' };
      },
      answerQuestion: async (question, signal) => {
        const answer = (await prompt(questionText(question), signal, input, output)).trim();
        const index = Number(answer);
        return question.choices && Number.isInteger(index) && index >= 1 && index <= question.choices.length
          ? question.choices[index - 1]!
          : answer;
      },
    };
  }
  if (options.demo) {
    return { policy: 'auto-approve', answeredBy: 'the demo script (no terminal to ask; pass --no to see a refusal)' };
  }
  return { policy: 'auto-reject', answeredBy: 'nobody: no terminal and neither --yes nor --no, so every request is rejected' };
}
