import { useState } from 'react';
import { api } from './api.js';
import type { PendingConfirmation } from './api.js';

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
        <h2 id="confirm-title">Confirm {request.toolName}?</h2>
        <dl>
          <dt>Target</dt>
          <dd className="target">{request.target}</dd>
          <dt>Scope</dt>
          <dd>{request.scope}</dd>
          <dt>Impact</dt>
          <dd>{request.impact}</dd>
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
