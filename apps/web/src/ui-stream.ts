import type { AgentEvent, Renderer } from '@aibuddy/agent';
import type { ConfirmDecisionEvent } from '@aibuddy/runtime';
import type { UIMessageStreamWriter } from 'ai';
import type { PendingConfirmation } from './pending-confirmations.js';

/**
 * The data parts this host adds to the AI SDK UI message stream. Transient parts (live output,
 * heartbeats, confirmation traffic) reach the page's `onData` only and never the message history;
 * the others stay on the assistant message.
 */
export interface WebDataParts {
  'tool-output': { toolCallId: string; stream: 'stdout' | 'stderr'; chunk: string };
  heartbeat: { toolCallId: string; at: number };
  'confirm-request': PendingConfirmation;
  'confirm-decision': Omit<ConfirmDecisionEvent, 'type'>;
  compaction: { toolCallId: string; strategy: string; originalTokens: number; compactedTokens: number; recoverable: boolean };
  'tool-failure': { toolCallId: string; toolName: string; stage: string; message: string };
  'tools-joined': { step: number; names: string[] };
  run: { taskId: string; status: 'completed' | 'failed' | 'aborted'; steps: number; error?: { stage: string; message: string } };
  [key: string]: unknown;
}

type Writer = UIMessageStreamWriter;

/**
 * Turns one run's renderer calls and agent events into UI message stream chunks: text as text
 * parts, each tool call as a dynamic tool part carrying the client projection, and the rest as the
 * data parts above. One instance per run.
 */
export class UiStreamBridge {
  private textId: string | undefined;
  private textCount = 0;
  private stepOpen = false;
  private previousTools: Set<string> | undefined;
  private readonly settled = new Set<string>();

  constructor(
    private readonly writer: Writer,
    private readonly taskId: string,
  ) {}

  /** The renderer `runTask` drives: text deltas and step ends. */
  renderer(): Renderer {
    return {
      text: (delta) => this.text(delta),
      endStep: () => this.endStep(),
      event: (event) => this.event(event),
      note: () => {},
      close: () => this.closeText(),
    };
  }

  private write(chunk: Parameters<Writer['write']>[0]): void {
    this.writer.write(chunk);
  }

  private text(delta: string): void {
    if (delta === '') return;
    if (!this.textId) {
      this.textId = `text-${this.taskId}-${++this.textCount}`;
      this.write({ type: 'text-start', id: this.textId });
    }
    this.write({ type: 'text-delta', id: this.textId, delta });
  }

  private closeText(): void {
    if (!this.textId) return;
    this.write({ type: 'text-end', id: this.textId });
    this.textId = undefined;
  }

  private endStep(): void {
    this.closeText();
    if (this.stepOpen) this.write({ type: 'finish-step' });
    this.stepOpen = false;
  }

  private data<K extends keyof WebDataParts & string>(
    name: K,
    data: WebDataParts[K],
    options: { id?: string; transient?: boolean } = {},
  ): void {
    this.write({ type: `data-${name}`, data, ...options } as Parameters<Writer['write']>[0]);
  }

  /** Every agent event of the run, live. */
  event(event: AgentEvent): void {
    switch (event.type) {
      case 'model-request': {
        this.closeText();
        if (!this.stepOpen) this.write({ type: 'start-step' });
        this.stepOpen = true;
        const tools = new Set(event.tools);
        if (this.previousTools) {
          const joined = event.tools.filter((name) => !this.previousTools!.has(name));
          if (joined.length > 0) this.data('tools-joined', { step: event.step, names: joined }, { id: `joined-${event.step}` });
        }
        this.previousTools = tools;
        break;
      }
      case 'tool-call':
        this.closeText();
        this.write({
          type: 'tool-input-available',
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          input: event.input,
          dynamic: true,
        });
        break;
      case 'tool-output':
        this.data('tool-output', { toolCallId: event.toolCallId, stream: event.stream, chunk: event.chunk }, { transient: true });
        break;
      case 'heartbeat':
        this.data('heartbeat', { toolCallId: event.toolCallId, at: Date.now() }, { transient: true });
        break;
      case 'confirm-request':
        this.data(
          'confirm-request',
          {
            taskId: this.taskId,
            toolCallId: event.toolCallId,
            toolName: event.toolName,
            target: event.target,
            scope: event.scope,
            impact: event.impact,
            inputDigest: event.inputDigest,
            input: event.input,
          },
          { transient: true },
        );
        break;
      case 'confirm-decision':
        this.data(
          'confirm-decision',
          { toolCallId: event.toolCallId, approved: event.approved, ...(event.reason ? { reason: event.reason } : {}) },
          { transient: true },
        );
        break;
      case 'tool-finished':
      case 'tool-result':
        this.settle(event);
        break;
      case 'compaction':
        this.data(
          'compaction',
          {
            toolCallId: event.toolCallId,
            strategy: event.strategy,
            originalTokens: event.originalTokens,
            compactedTokens: event.compactedTokens,
            recoverable: event.pointer !== undefined,
          },
          { id: `compaction-${event.toolCallId}` },
        );
        break;
      case 'run-end':
        this.endStep();
        this.data(
          'run',
          { taskId: this.taskId, status: event.status, steps: event.steps, ...(event.error ? { error: event.error } : {}) },
          { id: `run-${this.taskId}` },
        );
        break;
      default:
        break;
    }
  }

  /** The first of `tool-finished` / `tool-result` settles the card (the client never waits for compaction). */
  private settle(event: Extract<AgentEvent, { type: 'tool-finished' | 'tool-result' }>): void {
    if (this.settled.has(event.toolCallId)) return;
    this.settled.add(event.toolCallId);
    if (event.error) {
      this.write({ type: 'tool-output-error', toolCallId: event.toolCallId, errorText: event.error.message, dynamic: true });
      this.data(
        'tool-failure',
        { toolCallId: event.toolCallId, toolName: event.toolName, stage: event.error.stage, message: event.error.message },
        { id: `failure-${event.toolCallId}` },
      );
      return;
    }
    this.write({ type: 'tool-output-available', toolCallId: event.toolCallId, output: event.client ?? null, dynamic: true });
  }
}
