import { createApprovalLedger } from './approval-ledger.js';
import type { ApprovalLedger } from './approval-ledger.js';
import type { AuthorizationDecision, AuthorizationRequest } from './ai-tools-types.js';

const gateErrorMarker = Symbol.for('aibuddy.runtime.ConfirmationGateError');

/** A confirmation gate was configured in a way that cannot work (names the option to fix). */
export class ConfirmationGateError extends Error {
  private readonly [gateErrorMarker] = true;
  override readonly name: string = 'ConfirmationGateError';

  /** True for any `ConfirmationGateError`, from any copy of this package. */
  static isInstance(error: unknown): error is ConfirmationGateError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[gateErrorMarker] === true;
  }
}

/**
 * How a host decides high-impact calls: `ask` a person (default), `auto-approve` everything
 * (for CI, where the sandbox is the only boundary), or `auto-reject` everything (for
 * non-interactive runs where no one can answer).
 */
export type ConfirmationPolicy = 'ask' | 'auto-approve' | 'auto-reject';

/** Every {@link ConfirmationPolicy}, for CLIs and validation. */
export const CONFIRMATION_POLICIES: readonly ConfirmationPolicy[] = ['ask', 'auto-approve', 'auto-reject'];

/**
 * Where the person answers under policy `ask`: `host` — the call waits while the gate's `ask`
 * runs (a CLI prompt, a websocket round trip); `ai-sdk` — the tool declares `needsApproval`, the
 * run ends with a `tool-approval-request` part, and the answer comes back as a
 * `tool-approval-response` part in the next run's messages (what AI SDK UIs do).
 */
export type ApprovalChannel = 'host' | 'ai-sdk';

/** A question for the person (the `ask_user_question` tool). */
export interface UserQuestion {
  /** The call that asks. */
  toolCallId: string;
  /** The question, as the model wrote it. */
  question: string;
  /** Choices to pick from, when the model offered some. */
  choices?: string[];
  /** Whether an answer outside `choices` is accepted (always true without choices). */
  allowOther: boolean;
}

/** The person's answer to a {@link UserQuestion}. */
export interface UserAnswer {
  /** The answer text (the chosen choice's text when one was picked). */
  answer: string;
  /** Index into `choices` of the picked choice, when one was picked. */
  choiceIndex?: number;
}

/**
 * The host-provided service that lets tools reach a person (`services.interaction`). The
 * `interaction` tools require it: a host without a person injects none and gets no such tools.
 */
export interface InteractionService {
  /** Asks the person a question and waits for the answer. `signal` aborts on a user stop. */
  askQuestion(question: UserQuestion, signal: AbortSignal): Promise<UserAnswer>;
  /** Asks the person to confirm a step and waits for the decision. */
  confirm(request: AuthorizationRequest, signal: AbortSignal): Promise<AuthorizationDecision>;
}

/** Options of {@link createConfirmationGate}. */
export interface ConfirmationGateOptions {
  /** How high-impact calls are decided. Default `ask`. */
  policy?: ConfirmationPolicy;
  /** Where the person answers under `ask`. Default `host`. */
  via?: ApprovalChannel;
  /**
   * Asks the person about one concrete call and resolves with their decision. Required for
   * policy `ask` via `host`; also answers the `confirm` tool. Should honour `signal`.
   */
  ask?: (request: AuthorizationRequest, signal: AbortSignal) => Promise<AuthorizationDecision>;
  /** Answers `ask_user_question` (a string is taken as the answer text). */
  answerQuestion?: (question: UserQuestion, signal: AbortSignal) => Promise<UserAnswer | string>;
  /**
   * Where confirmation requests are recorded. Default: in memory. A server that receives AI SDK
   * approvals in a later request passes one ledger to every run of the conversation.
   */
  ledger?: ApprovalLedger;
}

/** A host's confirmation policy, ready to pass to `createAiTools({ confirmation })`. */
export interface ConfirmationGate {
  /** The policy in force. */
  readonly policy: ConfirmationPolicy;
  /** Where the person answers under `ask`. */
  readonly via: ApprovalChannel;
  /** Where requests are recorded and decisions bound to call and input. */
  readonly ledger: ApprovalLedger;
  /** Decides one high-impact call while it waits (usable as `createAiTools({ authorize })`). */
  authorize(request: AuthorizationRequest, signal: AbortSignal): Promise<AuthorizationDecision>;
  /**
   * The service to inject as `services.interaction`, or `undefined` when no person can answer
   * (policy other than `ask`, or no `ask`/`answerQuestion`): the interaction tools are then excluded.
   */
  readonly interaction: InteractionService | undefined;
}

/** Reason sent to the model when policy `auto-reject` denies a call. */
export const AUTO_REJECT_REASON =
  'This run is non-interactive and its policy rejects every high-impact action (auto-reject). Find a safer way or report what you would need.';

/**
 * Creates a host's confirmation gate: the policy for high-impact calls, the function that asks
 * a person, and the answering service of `ask_user_question` and `confirm`.
 *
 * @example
 * const gate = createConfirmationGate({ policy: 'ask', ask: (req) => promptUser(req), answerQuestion: (q) => promptUser(q) });
 * const set = await resolveToolSet({ configs: [interactionToolConfig, ...], services: { interaction: gate.interaction } });
 * const tools = createAiTools(set, { confirmation: gate, onEvent });
 */
export function createConfirmationGate(options: ConfirmationGateOptions = {}): ConfirmationGate {
  const policy = options.policy ?? 'ask';
  const via = options.via ?? 'host';
  if (!CONFIRMATION_POLICIES.includes(policy)) {
    throw new ConfirmationGateError(
      `Unknown confirmation policy ${JSON.stringify(policy)}; use one of ${CONFIRMATION_POLICIES.join(', ')}.`,
    );
  }
  if (via !== 'host' && via !== 'ai-sdk') {
    throw new ConfirmationGateError(`Unknown approval channel ${JSON.stringify(via)}; use "host" or "ai-sdk".`);
  }
  const ask = options.ask;
  if (policy === 'ask' && via === 'host' && !ask) {
    throw new ConfirmationGateError(
      'Policy "ask" via "host" needs an `ask` function that asks a person. Pass one, use via: "ai-sdk" to answer through the AI SDK\'s tool approval, or pick policy "auto-reject" for runs where no one can answer.',
    );
  }

  const authorize = async (request: AuthorizationRequest, signal: AbortSignal): Promise<AuthorizationDecision> => {
    const binding = { toolCallId: request.toolCallId, inputDigest: request.inputDigest };
    if (policy === 'auto-approve') return { approved: true, reason: 'approved by host policy (auto-approve)', ...binding };
    if (policy === 'auto-reject') return { approved: false, reason: AUTO_REJECT_REASON, ...binding };
    if (!ask) {
      throw new ConfirmationGateError(
        'this host answers confirmations through the AI SDK\'s tool approval (via "ai-sdk"), and no approval for this call was found in the messages.',
      );
    }
    return ask(request, signal);
  };

  const answerQuestion = options.answerQuestion;
  const interaction: InteractionService | undefined =
    policy === 'ask' && ask && answerQuestion
      ? {
          askQuestion: async (question, signal) => {
            const answer = await answerQuestion(question, signal);
            return typeof answer === 'string' ? { answer } : answer;
          },
          confirm: (request, signal) => ask(request, signal),
        }
      : undefined;

  return { policy, via, ledger: options.ledger ?? createApprovalLedger(), authorize, interaction };
}
