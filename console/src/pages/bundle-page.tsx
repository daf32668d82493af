// Talking to one uploaded agent: each message starts a streamed run (`stream: true`, then the run's
// SSE feed) in one conversation, shown as a chat transcript with tool calls, their arguments and
// results (withheld ones marked). Every string from the model or a tool is rendered as text.
//
// A tool call that waits for a person (DESIGN §13: the stream ends with RUN_FINISHED's interrupt
// outcome, or a waiting run's poll body lists it in `pendingApprovals`) shows what it asks (GET
// /api/approvals/{id}) with Approve / Reject when this viewer may decide, else that it waits for an
// approver; the approval is re-read until someone decides or it expires. The decision goes through
// POST /api/approvals/{id}/decision; once decided, by anyone, the same job's continuation is streamed
// into the transcript through the AG-UI resume (which, the approval being decided already, only
// attaches: frames from the interrupt on, the waiting call's result first).
//
// Each finished run says what it cost (tokens, `usage.costUsd`) and, when the spend limit stopped it
// (DESIGN §16), says so with a link to the spend panel. With A2A on (DESIGN §20) the handle's A2A
// address, read from its agent card, is shown beside the handle; the card is 404 while A2A is off.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/api-error';
import type { Approval, BundleHandle, BundleRun, StartBundleRun } from '../api/types';
import { Decision, RedactedArguments, TimeLeft, toolCallFacts } from '../components/approval-parts';
import { Badge, Empty, Facts, ProblemNotice, Verbatim } from '../components/common';
import { useApi } from '../lib/api-context';
import { prettyJson, when } from '../lib/format';
import { href, useTitle } from '../lib/router';
import { runSummary, stoppedEarly } from '../lib/run-summary';
import { applyStreamFrame, interruptsOf, waitingItemsOf, type InterruptItem, type StreamFrame, type TranscriptItem } from '../lib/transcript';
import { useAsync } from '../lib/use-async';
import { useNow } from '../lib/use-now';

/** How often a waiting call's approval is read again (someone else may decide it, or it may expire). */
const WAIT_POLL_MS = 1500;

/** How many times a resume attaches to the continuation of an expired call before giving up. */
const EXPIRY_ATTACH_TRIES = 5;

/** What the chat is doing: streaming a run, waiting for a decision, streaming a decided run's continuation. */
type Phase = 'idle' | 'streaming' | 'waiting' | 'continuing';
/** How a stream ended: the run finished (or failed), it waits for a person, or the stream was cut short. */
type StreamEnd = 'finished' | 'waiting' | 'cut';

function newConversationId(): string {
  return `console-${crypto.randomUUID()}`;
}

export function BundlePage({ handle }: { handle: string }) {
  const api = useApi();
  const base = `/api/bundles/${encodeURIComponent(handle)}`;
  const handles = useAsync((signal) => api.get<{ handles: BundleHandle[] }>('/api/bundles?limit=200', signal), [api]);
  const runs = useAsync((signal) => api.get<{ runs: BundleRun[] }>(`${base}/runs?limit=20`, signal), [api, base]);
  const agent = handles.value?.handles.find((h) => h.handle === handle);
  const a2a = useAsync(
    (signal) => api.get<{ supportedInterfaces: Array<{ url: string }> }>(`/a2a/${encodeURIComponent(handle)}/.well-known/agent-card.json`, signal),
    [api, handle],
  );
  const a2aAddress = a2a.value?.supportedInterfaces[0]?.url;
  useTitle(agent === undefined ? 'Bundle' : `Agent ${agent.agentId}`);

  const [conversationId, setConversationId] = useState(newConversationId);
  const [items, setItems] = useState<TranscriptItem[]>([]);
  const [message, setMessage] = useState('');
  const [phase, setPhase] = useState<Phase>('idle');
  const [error, setError] = useState<unknown>(undefined);
  const [followError, setFollowError] = useState<unknown>(undefined);
  /** Waiting calls decided (by anyone), by approvalId. */
  const [settled, setSettled] = useState<Readonly<Record<string, Approval>>>({});
  const settledIds = useRef(new Set<string>());
  // The service refuses this viewer decisions on its own runs' calls (a 403: separation of duties);
  // nothing says so beforehand, so the buttons show until the first refusal, and not after it.
  const [mayDecide, setMayDecide] = useState(true);
  const stop = useRef<AbortController | null>(null);
  const following = useRef<AbortController | null>(null);
  useEffect(() => () => following.current?.abort(), []);
  const running = phase === 'streaming' || phase === 'continuing';

  /** Applies a stream's frames to the transcript; answers how it ended. */
  const streamInto = async (open: (onFrame: (frame: StreamFrame) => void) => Promise<void>): Promise<StreamEnd> => {
    let end: StreamEnd = 'cut';
    await open((frame) => {
      if (frame.type === 'RUN_FINISHED' || frame.type === 'RUN_ERROR') end = interruptsOf(frame).length > 0 ? 'waiting' : 'finished';
      setItems((previous) => applyStreamFrame(previous, frame));
    });
    return end;
  };

  const send = async (): Promise<void> => {
    const text = message.trim();
    if (text === '' || phase !== 'idle') return;
    setPhase('streaming');
    setError(undefined);
    setMessage('');
    setItems((previous) => [...previous, { kind: 'user', id: `user-${previous.length}`, text }]);
    const controller = new AbortController();
    stop.current = controller;
    let end: StreamEnd = 'cut';
    try {
      const started = await api.send<StartBundleRun>('POST', `${base}/runs`, { userMessages: [text], stream: true, conversationId });
      end = await streamInto((onFrame) => api.stream<StreamFrame>(started.streamUrl!, onFrame, controller.signal));
    } catch (caught) {
      if (!controller.signal.aborted) setError(caught);
      else setItems((previous) => [...previous, { kind: 'error', id: `stopped-${previous.length}`, text: 'Stopped: closing the stream cancelled the run.' }]);
    } finally {
      stop.current = null;
      setPhase(end === 'waiting' ? 'waiting' : 'idle');
      runs.reload();
    }
  };

  /** A waiting call was decided (here or elsewhere) or expired: stream the same job's continuation. */
  const resume = async (interrupt: InterruptItem, approval: Approval): Promise<void> => {
    if (settledIds.current.has(interrupt.id)) return;
    settledIds.current.add(interrupt.id);
    setSettled((previous) => ({ ...previous, [interrupt.id]: approval }));
    if (approval.status === 'Withdrawn') {
      // The run ended without the call (it was stopped): there is nothing to continue.
      setPhase('idle');
      runs.reload();
      return;
    }
    setPhase('continuing');
    setFollowError(undefined);
    const controller = new AbortController();
    following.current = controller;
    let end: StreamEnd = 'cut';
    try {
      const approved = approval.status === 'Approved';
      const input = {
        threadId: conversationId,
        runId: interrupt.runId,
        messages: [{ id: `resume-${interrupt.id}`, role: 'user', content: '' }],
        resume: [{ interruptId: interrupt.id, status: approved ? 'resolved' : 'cancelled', payload: { decision: approved ? 'Approve' : 'Reject' } }],
      };
      for (let attempt = 1; ; attempt += 1) {
        try {
          end = await streamInto((onFrame) => api.stream<StreamFrame>(`${base}/agui`, onFrame, controller.signal, input));
          break;
        } catch (caught) {
          // An expiry shown before the service's sweep records it (within a second) is still open to a
          // resume, which would decide it: a 403 for an owner who may not. Attach once it is recorded.
          if (!(approval.status === 'Expired' && caught instanceof ApiError && caught.status === 403 && attempt < EXPIRY_ATTACH_TRIES)) throw caught;
          await new Promise((done) => window.setTimeout(done, WAIT_POLL_MS));
        }
      }
      if (end === 'cut' && !controller.signal.aborted) {
        setItems((previous) => [...previous, { kind: 'error', id: `cut-${previous.length}`, text: 'The stream ended before the run did; the run goes on (see Runs).' }]);
      }
    } catch (caught) {
      if (!controller.signal.aborted) setFollowError(caught);
    } finally {
      if (following.current === controller) following.current = null;
      if (!controller.signal.aborted) setPhase(end === 'waiting' ? 'waiting' : 'idle');
      runs.reload();
    }
  };

  /** A run that waits for a decision, from its poll body (Runs), taken into the transcript. */
  const adopt = (run: BundleRun): void => {
    setItems((previous) => [...previous, ...waitingItemsOf(run).filter((item) => !previous.some((known) => known.kind === item.kind && known.id === item.id))]);
    setPhase('waiting');
  };

  const shown = new Set(items.filter((item) => item.kind === 'interrupt').map((item) => item.id));
  // Tool calls held for a decision not made yet: they have not run.
  const held = new Set(items.flatMap((item) => (item.kind === 'interrupt' && settled[item.id] === undefined ? [item.toolCallId] : [])));
  const runById = new Map((runs.value?.runs ?? []).map((run) => [run.jobId, run]));

  return (
    <section>
      <h1>{agent === undefined ? 'Bundle' : `Agent ${agent.agentId}`}</h1>
      <p class="meta">
        Handle <code>{handle}</code>
        {agent === undefined ? null : <> · expires {when(agent.expiresAt)} at the earliest</>} · <a href={href('bundles')}>all bundles</a>
        {a2aAddress === undefined ? null : (
          <>
            <br />
            A2A agent (card at <code>…/.well-known/agent-card.json</code>): <code>{a2aAddress}</code>
          </>
        )}
      </p>
      <ProblemNotice error={runs.error} />
      <div class="split wide-first">
        <div class="pane wide">
          <div class="heading-row">
            <h2>Conversation</h2>
            <button
              type="button"
              disabled={phase === 'streaming'}
              onClick={() => {
                // A waiting or continuing run goes on without this page (see Runs).
                following.current?.abort();
                setConversationId(newConversationId());
                setItems([]);
                setPhase('idle');
              }}
            >
              New conversation
            </button>
          </div>
          <ol class="transcript" aria-label="Transcript" aria-live="polite">
            {items.length === 0 ? <li class="empty">Say something to start a run.</li> : null}
            {items.map((item) =>
              item.kind === 'interrupt' ? (
                <WaitingCall
                  key={`${item.kind}:${item.id}`}
                  item={item}
                  settled={settled[item.id]}
                  mayDecide={mayDecide}
                  onForbidden={() => setMayDecide(false)}
                  onSettled={(approval) => void resume(item, approval)}
                />
              ) : (
                <TranscriptEntry
                  key={`${item.kind}:${item.id}`}
                  item={item}
                  held={item.kind === 'tool' && held.has(item.id)}
                  run={item.kind === 'end' ? runById.get(item.runId) : undefined}
                />
              ),
            )}
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
              <button type="submit" class="primary" disabled={phase !== 'idle' || message.trim() === ''}>
                {running ? 'Running…' : phase === 'waiting' ? 'Waiting for a decision…' : 'Send'}
              </button>
              {phase === 'streaming' ? (
                <button type="button" class="danger" onClick={() => stop.current?.abort()}>
                  Stop
                </button>
              ) : null}
            </div>
            <p class="hint">
              Ctrl+Enter sends. Each message is one run in conversation <code>{conversationId}</code>
              {phase === 'waiting' ? '; the next can be sent once the waiting call is decided' : ''}.
            </p>
          </form>
          <ProblemNotice error={error} context="The run could not be started" />
          <ProblemNotice error={followError} context="The decided run could not be followed (it goes on: see Runs)" />
        </div>
        <div class="pane">
          <h2>Runs</h2>
          {runs.value?.runs.length === 0 ? <Empty>No runs yet.</Empty> : null}
          <ul class="plain-list" aria-label="Runs of this handle">
            {(runs.value?.runs ?? []).map((run) => (
              <li key={run.jobId}>
                <Badge status={run.status} /> <span class="meta">{when(run.createdAt)}</span>
                {runSummary(run) === '' ? null : <span class="meta"> · {runSummary(run)}</span>}
                {run.error === null ? null : <span class="field-error"> {run.error}</span>}
                {stoppedEarly(run) === null ? null : <span class="field-error"> {stoppedEarly(run)}</span>}
                {(run.pendingApprovals ?? []).length === 0 ? null : (
                  <>
                    <span class="meta"> · waits for a decision on {(run.pendingApprovals ?? []).map((call) => `${call.tool}.${call.operation}`).join(', ')}</span>
                    {(run.pendingApprovals ?? []).every((call) => shown.has(call.approvalId)) ? null : (
                      <button type="button" disabled={phase !== 'idle'} onClick={() => adopt(run)}>
                        Show in the conversation
                      </button>
                    )}
                  </>
                )}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}

/** A tool call the run waits on: what it asks, the decision (or that it waits for an approver), then how it was decided. */
function WaitingCall(props: {
  item: InterruptItem;
  settled: Approval | undefined;
  mayDecide: boolean;
  onForbidden: () => void;
  onSettled: (approval: Approval) => void;
}) {
  const { item, settled, mayDecide, onForbidden, onSettled } = props;
  const api = useApi();
  const now = useNow();
  const path = `/api/approvals/${encodeURIComponent(item.id)}`;
  const read = useAsync((signal) => api.get<Approval>(path, signal), [api, path], settled === undefined ? WAIT_POLL_MS : undefined);
  const seen = read.value;
  useEffect(() => {
    // Decided by someone else, or expired (a rejection): the run goes on.
    if (settled === undefined && seen !== undefined && seen.status !== 'Pending') onSettled(seen);
  }, [seen, settled]);
  const approval = settled ?? seen;
  return (
    <li class="msg msg-approval">
      <span class="who-label">Approval</span>
      <div class="approval-call">
        <p>
          {item.message} {approval === undefined ? null : <Badge status={approval.status} />}
        </p>
        <ProblemNotice error={read.error} context="The waiting call could not be read" />
        {approval === undefined ? null : (
          <>
            <Facts items={[...toolCallFacts(approval), ['Rule that asked', approval.reason], ['Time left', <TimeLeft approval={approval} now={now} />]]} />
            <p class="sub">Arguments</p>
            <RedactedArguments approval={approval} />
            <Decision
              approval={approval}
              onDecided={onSettled}
              onForbidden={onForbidden}
              cannotDecide={
                mayDecide ? undefined : (
                  <p class="notice" role="status">
                    Waiting for an approver: you may not decide this call yourself. The run goes on once someone decides it (or it expires, which counts as a rejection).
                  </p>
                )
              }
            />
          </>
        )}
      </div>
    </li>
  );
}

function TranscriptEntry({ item, held, run }: { item: Exclude<TranscriptItem, InterruptItem>; held: boolean; run: BundleRun | undefined }) {
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
            {item.args === null && !item.argsWithheld ? null : (
              <p class="sub">Arguments{item.argsWithheld ? <span class="withheld"> (withheld: too large to show)</span> : null}</p>
            )}
            {item.argsWithheld || item.args === null ? null : <Verbatim text={prettyJson(item.args)} label={`Arguments of ${item.name}`} />}
            <p class="sub">Result{item.resultWithheld ? <span class="withheld"> (withheld: too large to show)</span> : null}</p>
            {item.resultWithheld ? null : item.result === null ? (
              <p class="meta">{held ? 'not run: waiting for a decision' : 'running…'}</p>
            ) : (
              <Verbatim text={item.result} label={`Result of ${item.name}`} />
            )}
          </div>
        </li>
      );
    case 'error':
      return (
        <li class="msg msg-error" role="alert">
          {item.text}
        </li>
      );
    case 'end': {
      // The run's poll body (Runs, read again when the stream ends) adds its cost and why it stopped.
      const stopped = run === undefined ? null : stoppedEarly(run);
      const summary = run === undefined ? '' : runSummary(run);
      return (
        <li class="msg msg-end">
          {stopped === null ? 'Run finished' : `Run stopped: ${stopped}`}
          {summary === '' ? '.' : ` · ${summary}`}
          {stopped === null ? null : (
            <>
              {' · '}
              <a href={href('tools')}>your spend and limits</a>
            </>
          )}
        </li>
      );
    }
  }
}
