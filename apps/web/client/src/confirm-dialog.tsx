import { useState } from 'react';
import { api } from './api.js';
import type { PendingConfirmation } from './api.js';

// Control characters and the bidirectional overrides that reorder what a person reads: a browser
// does not run escape sequences, but an override can make "rm -rf /" read as something else.
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control or reordering character shown as its escape (`\u202e`). */
function visible(text: string): string {
  return text.replace(INVISIBLE, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}

/** The whole input, as JSON (it is what the approval binds; the target may be cut). */
function inputText(input: unknown): string {
  try {
    return JSON.stringify(input, null, 2) ?? String(input);
  } catch {
    return '(an input that cannot be shown as JSON)';
  }
}

/** Asks the person about ONE call: the answer names that call and its input digest. */
export function ConfirmDialog({
  request,
  onAnswered,
}: {
  request: PendingConfirmation;
  onAnswered: (toolCallId: string) => void;
}) {
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const answer = (approved: boolean) => {
    setSending(true);
    api
      .confirm(request, approved, approved ? undefined : 'the user rejected it in the browser')
      .then(() => onAnswered(request.toolCallId))
      .catch((e: Error) => setError(e.message))
      .finally(() => setSending(false));
  };
  return (
    <div className="backdrop">
      <div
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        data-tool-call-id={request.toolCallId}
      >
        <h2 id="confirm-title">Confirm {visible(request.toolName)}?</h2>
        <dl>
          <dt>Target</dt>
          <dd className="target">{visible(request.target)}</dd>
          <dt>Scope</dt>
          <dd>{visible(request.scope)}</dd>
          <dt>Impact</dt>
          <dd>{visible(request.impact)}</dd>
          <dt>Input (in full)</dt>
          <dd>
            <pre className="input">{visible(inputText(request.input))}</pre>
          </dd>
          <dt>Call</dt>
          <dd>
            <code>{request.toolCallId}</code>
          </dd>
        </dl>
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="actions">
          <button type="button" className="reject" disabled={sending} onClick={() => answer(false)}>
            Reject
          </button>
          <button type="button" className="approve" disabled={sending} onClick={() => answer(true)}>
            Approve
          </button>
        </div>
      </div>
    </div>
  );
}
