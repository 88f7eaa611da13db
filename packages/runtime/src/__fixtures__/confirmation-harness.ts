// Test harness for the confirmation tests: one runner interface over generateText and
// streamText, a real high-impact tool over a temporary folder, and AI SDK approval helpers.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, stepCountIs, streamText } from 'ai';
import type { LanguageModel, ModelMessage, ToolSet } from 'ai';
import { z } from 'zod';
import { defineTool, resolveToolSet } from '@aibuddy/registry';
import type { ResolvedToolSet } from '@aibuddy/registry';

/** Which AI SDK entry point drives the run. */
export type RunnerName = 'generateText' | 'streamText';

/** What a run produced, the same for both entry points. */
export interface RunOutcome {
  /** The messages the run added (pass them back with approval responses). */
  messages: ModelMessage[];
  /** Approval requests the run ended with. */
  approvalRequests: Array<{ approvalId: string; toolCallId: string; signature?: string }>;
  /** The error the run ended with, if it failed (an abort, an invalid approval). */
  error?: unknown;
  /** streamText only: every part of the full stream. */
  parts: Array<{ type: string; [key: string]: unknown }>;
}

/** Arguments every run takes. */
export interface RunArgs {
  model: LanguageModel;
  tools: ToolSet;
  prompt?: string;
  messages?: ModelMessage[];
  abortSignal?: AbortSignal;
  experimental_toolApprovalSecret?: string;
}

/** Runs the model loop through `generateText` or `streamText`. */
export async function runWith(runner: RunnerName, args: RunArgs): Promise<RunOutcome> {
  const common = {
    model: args.model,
    tools: args.tools,
    stopWhen: stepCountIs(6),
    ...(args.messages ? { messages: args.messages } : { prompt: args.prompt ?? 'go' }),
    ...(args.abortSignal ? { abortSignal: args.abortSignal } : {}),
    ...(args.experimental_toolApprovalSecret ? { experimental_toolApprovalSecret: args.experimental_toolApprovalSecret } : {}),
  };
  if (runner === 'generateText') {
    try {
      const result = await generateText(common);
      const approvalRequests = result.content
        .filter((part) => part.type === 'tool-approval-request')
        .map((part) => ({
          approvalId: part.approvalId,
          toolCallId: part.toolCall.toolCallId,
          ...(part.signature ? { signature: part.signature } : {}),
        }));
      return { messages: result.response.messages, approvalRequests, parts: [] };
    } catch (error) {
      return { messages: [], approvalRequests: [], error, parts: [] };
    }
  }
  let streamError: unknown;
  const result = streamText({ ...common, onError: ({ error }) => void (streamError = error) });
  const parts: RunOutcome['parts'] = [];
  try {
    for await (const part of result.fullStream) parts.push(part as RunOutcome['parts'][number]);
  } catch (error) {
    streamError = error;
  }
  let messages: ModelMessage[] = [];
  try {
    messages = (await result.response).messages;
  } catch (error) {
    streamError ??= error;
  }
  const approvalRequests = parts
    .filter((part) => part.type === 'tool-approval-request')
    .map((part) => {
      const p = part as unknown as { approvalId: string; toolCall: { toolCallId: string }; signature?: string };
      return { approvalId: p.approvalId, toolCallId: p.toolCall.toolCallId, ...(p.signature ? { signature: p.signature } : {}) };
    });
  const aborted = parts.some((part) => part.type === 'abort');
  const error =
    streamError ??
    (parts.find((part) => part.type === 'error') as { error?: unknown } | undefined)?.error ??
    (aborted ? new Error('aborted') : undefined);
  return { messages, approvalRequests, parts, ...(error === undefined ? {} : { error }) };
}

/** The messages of a continuation run: the history plus the person's approval responses. */
export function withApprovalResponses(
  history: ModelMessage[],
  responses: Array<{ approvalId: string; approved: boolean; reason?: string }>,
): ModelMessage[] {
  return [...history, { role: 'tool', content: responses.map((r) => ({ type: 'tool-approval-response' as const, ...r })) }];
}

/** A temporary workspace with a few files and a high-impact `remove_file` tool over it. */
export async function removalWorkspace(files: readonly string[] = ['a.txt', 'b.txt']) {
  const dir = await mkdtemp(join(tmpdir(), 'aibuddy-confirm-'));
  for (const file of files) await writeFile(join(dir, file), `content of ${file}\n`);
  const ran: string[] = [];
  const removeFile = defineTool({
    name: 'remove_file',
    description: 'Deletes one file of the workspace.',
    inputSchema: z.object({ path: z.string() }),
    impact: ({ path }) => ({ target: path, scope: 'workspace', impact: `deletes ${path} permanently` }),
    execute: async ({ path }) => {
      ran.push(path);
      await rm(join(dir, path));
      return `removed ${path}`;
    },
  });
  const set: ResolvedToolSet = await resolveToolSet({
    configs: [{ key: 'danger', toolNames: ['remove_file'], create: () => [removeFile] }],
  });
  return {
    dir,
    set,
    /** Paths the tool actually ran for (a side effect happened). */
    ran,
    /** Files left in the workspace. */
    files: async () => (await readdir(dir)).sort(),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Resolves when `predicate` holds (polled), or rejects after `timeoutMs`. */
export async function until(predicate: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
