import { z } from 'zod';
import { defineTool, ToolError } from '@aibuddy/registry';
import type { AnyToolDefinition, ServerToolConfig } from '@aibuddy/registry';
import type { AuthorizationDecision } from './ai-tools-types.js';
import type { InteractionService, UserAnswer } from './confirmation-gate.js';
import { inputDigest } from './input-digest.js';

declare module '@aibuddy/registry' {
  interface ToolServices {
    /** A person who can answer questions and confirmations (see `createConfirmationGate`). */
    interaction?: InteractionService;
  }
}

const askInput = z.object({
  question: z.string().trim().min(1).describe('One clear question for the user.'),
  choices: z
    .array(z.string().trim().min(1))
    .min(2)
    .max(10)
    .optional()
    .describe('Answers to pick from (2-10), when the question has a small set of sensible answers.'),
  allow_other: z.boolean().optional().describe('With choices: whether the user may answer something else. Default false.'),
});

const confirmInput = z.object({
  action: z.string().trim().min(1).describe('The exact step you are about to take, e.g. the command or the change.'),
  target: z.string().trim().min(1).describe('What it acts on (a path, a branch, a service).'),
  scope: z.string().trim().min(1).optional().describe('How far the effect reaches (e.g. "this repository", "production").'),
  impact: z.string().trim().min(1).describe('Why it is risky: what could go wrong, in one sentence the user can judge.'),
});

/** What `ask_user_question` returns. */
export interface AskUserQuestionOutput {
  /** The user's answer. */
  answer: string;
  /** Index of the picked choice, when one was picked. */
  choiceIndex?: number;
}

/** What `confirm` returns. */
export interface ConfirmOutput {
  /** Whether the user approved the step. */
  approved: boolean;
  /** The user's reason, if given. */
  reason?: string;
}

function normalizeAnswer(answer: UserAnswer, choices: readonly string[] | undefined, allowOther: boolean): AskUserQuestionOutput {
  if (!choices) return { answer: answer.answer };
  if (answer.choiceIndex !== undefined) {
    const picked = choices[answer.choiceIndex];
    if (picked === undefined) {
      throw new ToolError(`the host answered with choice ${answer.choiceIndex}, but there are only ${choices.length} choices.`, {
        stage: 'execution',
        toolName: 'ask_user_question',
        retryable: true,
      });
    }
    return { answer: picked, choiceIndex: answer.choiceIndex };
  }
  const index = choices.findIndex((choice) => choice.toLowerCase() === answer.answer.trim().toLowerCase());
  if (index >= 0) return { answer: choices[index]!, choiceIndex: index };
  if (!allowOther) {
    throw new ToolError(`the answer ${JSON.stringify(answer.answer)} is not one of the choices offered.`, {
      stage: 'execution',
      toolName: 'ask_user_question',
      retryable: true,
      hint: 'Ask again, with allow_other: true if any answer is fine.',
    });
  }
  return { answer: answer.answer };
}

/** Builds `ask_user_question` and `confirm`, answered by the host's interaction service. */
export function createInteractionTools(interaction: InteractionService): AnyToolDefinition[] {
  const askUserQuestion = defineTool({
    name: 'ask_user_question',
    description:
      'Ask the user a question and wait for the answer. Use it when you cannot proceed well without their input (a missing requirement, a choice between approaches). Offer choices when a few answers make sense.',
    inputSchema: askInput,
    execute: async (input, context): Promise<AskUserQuestionOutput> => {
      const allowOther = input.choices ? (input.allow_other ?? false) : true;
      const answer = await interaction.askQuestion(
        {
          toolCallId: context.toolCallId,
          question: input.question,
          ...(input.choices ? { choices: input.choices } : {}),
          allowOther,
        },
        context.signal,
      );
      return normalizeAnswer(answer, input.choices, allowOther);
    },
    toModelOutput: ({ output }) => `The user answered: ${output.answer}`,
  });

  const confirm = defineTool({
    name: 'confirm',
    description:
      'Ask the user to confirm one concrete step you judge risky before you take it (deleting data, rewriting history, touching shared or production resources). Describe exactly what you will do. Waits for the answer.',
    inputSchema: confirmInput,
    execute: async (input, context): Promise<ConfirmOutput> => {
      const digest = inputDigest(input);
      const decision: AuthorizationDecision = await interaction.confirm(
        {
          toolCallId: context.toolCallId,
          toolName: 'confirm',
          target: input.target,
          scope: input.scope ?? 'unspecified',
          impact: `${input.action} — ${input.impact}`,
          input,
          inputDigest: digest,
        },
        context.signal,
      );
      if (
        (decision.toolCallId !== undefined && decision.toolCallId !== context.toolCallId) ||
        (decision.inputDigest !== undefined && decision.inputDigest !== digest)
      ) {
        throw new ToolError(
          'the answer received was given for another confirmation; it is refused. Treat the step as not confirmed.',
          {
            stage: 'authorization',
            toolName: 'confirm',
            retryable: false,
          },
        );
      }
      return { approved: decision.approved, ...(decision.reason === undefined ? {} : { reason: decision.reason }) };
    },
    toModelOutput: ({ input, output }) =>
      output.approved
        ? `The user confirmed: ${input.action}. Take exactly this step, nothing broader.`
        : `The user declined${output.reason ? `: ${output.reason}` : ''}. Do not take this step; ask how to proceed if unsure.`,
  });

  return [askUserQuestion, confirm];
}

/**
 * The `interaction` tool group: `ask_user_question` and `confirm`, both answered by the host. It
 * requires `services.interaction` (for example `createConfirmationGate(...).interaction`); a host
 * with no person injects none, and the group is excluded with the reason "no interaction in this host".
 */
export const interactionToolConfig: ServerToolConfig = {
  key: 'interaction',
  toolNames: ['ask_user_question', 'confirm'],
  requires: { services: ['interaction'] },
  create: ({ services }) => (services.interaction ? createInteractionTools(services.interaction) : []),
  instructions: () =>
    'When a step is risky and you are not sure the user wants it, call `confirm` first and follow the answer. When you need information only the user has, call `ask_user_question`; do not guess.',
};
