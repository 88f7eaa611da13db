import { useEffect, useState } from 'react';
import { api } from './api.js';
import type { RawPage } from './api.js';

/** Pages through a call's raw result as persisted (the same pages `view_tool_call` gives the model). */
export function RawView({ taskId, toolCallId }: { taskId: string; toolCallId: string }) {
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<RawPage | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    api
      .raw(taskId, toolCallId, offset)
      .then(setPage)
      .catch((e: Error) => setError(e.message));
  }, [taskId, toolCallId, offset]);
  if (error) return <p className="error">{error}</p>;
  if (!page) return <p className="raw-loading">loading…</p>;
  const end = page.offset + page.content.length;
  return (
    <div className="raw-view">
      <p className="raw-range">
        characters {page.offset}–{end} of {page.totalLength}
      </p>
      <pre className="output raw">{page.content}</pre>
      <div className="actions">
        <button type="button" disabled={page.offset === 0} onClick={() => setOffset(Math.max(0, page.offset - 4000))}>
          previous
        </button>
        <button
          type="button"
          className="raw-next"
          disabled={page.nextOffset === null}
          onClick={() => page.nextOffset !== null && setOffset(page.nextOffset)}
        >
          next
        </button>
      </div>
    </div>
  );
}
