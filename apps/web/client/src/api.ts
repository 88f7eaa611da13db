import type { ConfirmRequestEvent } from '@aibuddy/runtime';

/** What the server says about itself at load (and after a reload: the confirmations still waiting). */
export interface ServerState {
  workspace: string;
  model: string;
  running: string[];
  pending: PendingConfirmation[];
}

/** A confirmation waiting for this person: the runtime's request, bound to one task, call and input digest. */
export type PendingConfirmation = Omit<ConfirmRequestEvent, 'type'> & { taskId: string };

/** One page of a stored raw result (`view_tool_call`'s paging). */
export interface RawPage {
  toolCallId: string;
  toolName: string;
  offset: number;
  totalLength: number;
  nextOffset: number | null;
  content: string;
}

async function json<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as T & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
  return body;
}

/** The page's requests carry the HttpOnly cookie set when it was opened with the token. */
export const api = {
  state: () => fetch('/api/state').then((r) => json<ServerState>(r)),
  confirm: (request: PendingConfirmation, approved: boolean, reason?: string) =>
    fetch('/api/confirm', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ toolCallId: request.toolCallId, inputDigest: request.inputDigest, approved, reason }),
    }).then((r) => json<{ ok: true }>(r)),
  stop: (taskId: string) =>
    fetch(`/api/tasks/${encodeURIComponent(taskId)}/stop`, { method: 'POST' }).then((r) => json<{ stopped: boolean }>(r)),
  raw: (taskId: string, toolCallId: string, offset: number) =>
    fetch(
      `/api/tasks/${encodeURIComponent(taskId)}/calls/${encodeURIComponent(toolCallId)}/raw?offset=${offset}&limit=4000`,
    ).then((r) => json<RawPage>(r)),
};
