// Talking to one uploaded agent: each message starts a streamed run (`stream: true`, then the run's
// SSE feed) in one conversation, shown as a chat transcript with tool calls, their arguments and
// results (withheld ones marked). Every string from the model or a tool is rendered as text.
import { useRef, useState } from 'preact/hooks';
import type { BundleHandle, BundleRun, StartBundleRun } from '../api/types';
import { Badge, Empty, ProblemNotice, Verbatim } from '../components/common';
import { useApi } from '../lib/api-context';
import { prettyJson, when } from '../lib/format';
import { href, useTitle } from '../lib/router';
import { applyStreamFrame, type StreamFrame, type TranscriptItem } from '../lib/transcript';
import { useAsync } from '../lib/use-async';

function newConversationId(): string {
  return `console-${crypto.randomUUID()}`;
}

export function BundlePage({ handle }: { handle: string }) {
  const api = useApi();
  const base = `/api/bundles/${encodeURIComponent(handle)}`;
  const handles = useAsync((signal) => api.get<{ handles: BundleHandle[] }>('/api/bundles?limit=200', signal), [api]);
  const runs = useAsync((signal) => api.get<{ runs: BundleRun[] }>(`${base}/runs?limit=20`, signal), [api, base]);
  const agent = handles.value?.handles.find((h) => h.handle === handle);
  useTitle(agent === undefined ? 'Bundle' : `Agent ${agent.agentId}`);

  const [conversationId, setConversationId] = useState(newConversationId);
  const [items, setItems] = useState<TranscriptItem[]>([]);
  const [message, setMessage] = useState('');
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const stop = useRef<AbortController | null>(null);

  const send = async (): Promise<void> => {
    const text = message.trim();
    if (text === '' || running) return;
    setRunning(true);
    setError(undefined);
    setMessage('');
    setItems((previous) => [...previous, { kind: 'user', id: `user-${previous.length}`, text }]);
    const controller = new AbortController();
    stop.current = controller;
    try {
      const started = await api.send<StartBundleRun>('POST', `${base}/runs`, { userMessages: [text], stream: true, conversationId });
      await api.stream<StreamFrame>(started.streamUrl!, (frame) => setItems((previous) => applyStreamFrame(previous, frame)), controller.signal);
    } catch (caught) {
      if (!controller.signal.aborted) setError(caught);
      else setItems((previous) => [...previous, { kind: 'error', id: `stopped-${previous.length}`, text: 'Stopped: closing the stream cancelled the run.' }]);
    } finally {
      stop.current = null;
      setRunning(false);
      runs.reload();
    }
  };

  return (
    <section>
      <h1>{agent === undefined ? 'Bundle' : `Agent ${agent.agentId}`}</h1>
      <p class="meta">
        Handle <code>{handle}</code>
        {agent === undefined ? null : <> · expires {when(agent.expiresAt)} at the earliest</>} · <a href={href('bundles')}>all bundles</a>
      </p>
      <ProblemNotice error={runs.error} />
      <div class="split wide-first">
        <div class="pane wide">
          <div class="heading-row">
            <h2>Conversation</h2>
            <button
              type="button"
              disabled={running}
              onClick={() => {
                setConversationId(newConversationId());
                setItems([]);
              }}
            >
              New conversation
            </button>
          </div>
          <ol class="transcript" aria-label="Transcript" aria-live="polite">
            {items.length === 0 ? <li class="empty">Say something to start a run.</li> : null}
            {items.map((item) => (
              <TranscriptEntry key={`${item.kind}:${item.id}`} item={item} />
            ))}
          </ol>
          <form
            class="composer"
            onSubmit={(event) => {
              event.preventDefault();
              void send();
            }}
          >
            <label for="chat-message">Message</label>
            <textarea
              id="chat-message"
              rows={3}
              value={message}
              onInput={(event) => setMessage(event.currentTarget.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                  event.preventDefault();
                  void send();
                }
              }}
            />
            <div class="actions">
              <button type="submit" class="primary" disabled={running || message.trim() === ''}>
                {running ? 'Running…' : 'Send'}
              </button>
              {running ? (
                <button type="button" class="danger" onClick={() => stop.current?.abort()}>
                  Stop
                </button>
              ) : null}
            </div>
            <p class="hint">Ctrl+Enter sends. Each message is one run in conversation <code>{conversationId}</code>.</p>
          </form>
          <ProblemNotice error={error} context="The run could not be started" />
        </div>
        <div class="pane">
          <h2>Runs</h2>
          {runs.value?.runs.length === 0 ? <Empty>No runs yet.</Empty> : null}
          <ul class="plain-list" aria-label="Runs of this handle">
            {(runs.value?.runs ?? []).map((run) => (
              <li key={run.jobId}>
                <Badge status={run.status} /> <span class="meta">{when(run.createdAt)}</span>
                {run.result === null ? null : (
                  <span class="meta">
                    {' '}
                    · {run.result.turnCount} turn(s), {run.result.totalToolInvocations} tool call(s)
                  </span>
                )}
                {run.error === null ? null : <span class="field-error"> {run.error}</span>}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}

function TranscriptEntry({ item }: { item: TranscriptItem }) {
  switch (item.kind) {
    case 'user':
      return (
        <li class="msg msg-user">
          <span class="who-label">You</span>
          <div class="bubble">{item.text}</div>
        </li>
      );
    case 'assistant':
      return (
        <li class="msg msg-assistant">
          <span class="who-label">Agent</span>
          <div class="bubble">{item.text}</div>
        </li>
      );
    case 'tool':
      return (
        <li class="msg msg-tool">
          <span class="who-label">Tool call</span>
          <div class="tool-call">
            <p>
              <code class="tool-name">{item.name}</code>
            </p>
            <p class="sub">Arguments{item.argsWithheld ? <span class="withheld"> (withheld: too large to show)</span> : null}</p>
            {item.argsWithheld || item.args === null ? null : <Verbatim text={prettyJson(item.args)} label={`Arguments of ${item.name}`} />}
            <p class="sub">Result{item.resultWithheld ? <span class="withheld"> (withheld: too large to show)</span> : null}</p>
            {item.resultWithheld ? null : item.result === null ? <p class="meta">running…</p> : <Verbatim text={item.result} label={`Result of ${item.name}`} />}
          </div>
        </li>
      );
    case 'error':
      return (
        <li class="msg msg-error" role="alert">
          {item.text}
        </li>
      );
    case 'end':
      return <li class="msg msg-end">Run finished.</li>;
  }
}
