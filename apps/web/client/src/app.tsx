import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport } from 'ai';
import type { UIMessage } from 'ai';
import { useEffect, useMemo, useState } from 'react';
import { api } from './api.js';
import type { ServerState } from './api.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { useLiveState } from './live-state.js';
import type { DataPart } from './live-state.js';
import { MessageView } from './message-view.js';

const DEMO_TASK = 'Run the demo.';

/** The whole page: composer, conversation, confirmation dialog. */
export function App() {
  const [state, setState] = useState<ServerState | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();
  const [input, setInput] = useState('');
  const live = useLiveState();
  const transport = useMemo(() => new DefaultChatTransport<UIMessage>({ api: '/api/chat' }), []);
  const chat = useChat<UIMessage>({ transport, onData: (part) => live.onData(part as DataPart) });
  const busy = chat.status === 'submitted' || chat.status === 'streaming';
  const { setPending } = live;

  useEffect(() => {
    api
      .state()
      .then((s) => {
        setState(s);
        // After a reload the run goes on at the server: its waiting confirmations come back here.
        setPending(s.pending);
        if (s.model === 'demo') setInput(DEMO_TASK);
      })
      .catch((error: Error) => setLoadError(error.message));
  }, [setPending]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const text = input.trim();
    if (!text || busy) return;
    void chat.sendMessage({ text });
  };

  const stop = () => {
    // The server aborts the run (the signal reaches the process tree); the stream then ends by itself.
    void api.stop(chat.id);
  };

  return (
    <main>
      <header>
        <h1>aibuddy</h1>
        {state ? (
          <p className="meta">
            workspace <code>{state.workspace}</code> · model <code>{state.model}</code>
          </p>
        ) : loadError ? (
          <p className="error" role="alert">
            {loadError}
          </p>
        ) : null}
      </header>
      <section className="conversation" aria-live="polite">
        {chat.messages.map((message) => (
          <MessageView key={message.id} message={message} live={live} taskId={chat.id} />
        ))}
        {chat.error ? (
          <p className="error" role="alert">
            {chat.error.message}
          </p>
        ) : null}
      </section>
      <form className="composer" onSubmit={submit}>
        <textarea
          aria-label="Task"
          value={input}
          onChange={(e) => setInput(e.target.value)}
          rows={2}
          placeholder="What should the agent do?"
        />
        {busy ? (
          <button type="button" className="stop" onClick={stop}>
            Stop
          </button>
        ) : (
          <button type="submit" disabled={!input.trim()}>
            Run
          </button>
        )}
      </form>
      {live.pending[0] ? (
        <ConfirmDialog
          key={live.pending[0].toolCallId}
          request={live.pending[0]}
          onAnswered={(id) => live.setPending((p) => p.filter((x) => x.toolCallId !== id))}
        />
      ) : null}
    </main>
  );
}
