// The approvals inbox: every pending approval of my workflow runs, refreshed live; pick one to see
// its run's step graph and answer it (approve or reject, with a comment). The run is then followed
// until it finishes or parks again.
import { useState } from 'preact/hooks';
import type { PendingApproval, WorkflowDetail } from '../api/types';
import { Badge, Empty, ProblemNotice, Verbatim } from '../components/common';
import { RunGraph } from '../components/run-graph';
import { useApi } from '../lib/api-context';
import { when } from '../lib/format';
import { FINAL, useLiveRun } from '../lib/live-run';
import { href, useTitle } from '../lib/router';
import { useAsync } from '../lib/use-async';

const INBOX_REFRESH_MS = 3000;

export function ApprovalsPage() {
  useTitle('Approvals');
  const api = useApi();
  const inbox = useAsync((signal) => api.get<{ approvals: PendingApproval[] }>('/api/approvals?limit=200', signal), [api], INBOX_REFRESH_MS);
  const [selected, setSelected] = useState<PendingApproval | null>(null);
  const approvals = inbox.value?.approvals ?? [];
  const current = selected ?? approvals[0] ?? null;

  return (
    <section class="split">
      <div class="pane">
        <h1>Approvals</h1>
        <p class="hint" aria-live="polite">
          {inbox.value === undefined ? 'Loading…' : `${approvals.length} pending · refreshed live`}
        </p>
        <ProblemNotice error={inbox.error} context="The inbox could not be loaded" />
        {inbox.value !== undefined && approvals.length === 0 ? <Empty>Nothing is waiting for you.</Empty> : null}
        <ul class="cards" aria-label="Pending approvals">
          {approvals.map((approval) => (
            <li key={approval.approvalId}>
              <button
                type="button"
                class={`card${current?.approvalId === approval.approvalId ? ' selected' : ''}`}
                aria-pressed={current?.approvalId === approval.approvalId}
                onClick={() => setSelected(approval)}
              >
                <span class="card-title">{approval.stepName}</span>
                <span class="card-text">{approval.message}</span>
                <span class="card-meta">
                  asked {when(approval.createdAt)}
                  {approval.expiresAt === null ? '' : ` · expires ${when(approval.expiresAt)}`}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div class="pane wide">
        {current === null ? (
          <Empty>Select an approval to see its run.</Empty>
        ) : (
          <ApprovalDetail
            key={current.approvalId}
            approval={current}
            onAnswered={() => {
              // Keep the answered approval on screen to watch its run go on, while the inbox drops it.
              setSelected(current);
              inbox.reload();
            }}
          />
        )}
      </div>
    </section>
  );
}

function ApprovalDetail({ approval, onAnswered }: { approval: PendingApproval; onAnswered: () => void }) {
  const api = useApi();
  const workflow = useAsync((signal) => api.get<WorkflowDetail>(`/api/workflows/${encodeURIComponent(approval.workflowId)}`, signal), [api, approval.workflowId]);
  const [nudge, setNudge] = useState(0);
  const live = useLiveRun(api, approval.workflowId, approval.jobId, nudge);
  const [comment, setComment] = useState('');
  const [answer, setAnswer] = useState<{ decision: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);

  const decide = async (decision: 'Approve' | 'Reject'): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      const path = `/api/workflows/${encodeURIComponent(approval.workflowId)}/runs/${encodeURIComponent(approval.jobId)}/approvals/${encodeURIComponent(approval.approvalId)}`;
      await api.send('POST', path, { decision, ...(comment.trim() === '' ? {} : { comment }) });
      setAnswer({ decision });
      setNudge((n) => n + 1);
      onAnswered();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  const run = live.run;
  return (
    <article aria-labelledby="approval-heading">
      <h2 id="approval-heading">Gate “{approval.stepName}”</h2>
      <Verbatim text={approval.message} label="What the gate asks" />
      <p>
        Run <a href={href('workflows', approval.workflowId, 'runs', approval.jobId)}>{approval.jobId}</a>
        {workflow.value === undefined ? null : <> of workflow <a href={href('workflows', approval.workflowId)}>{workflow.value.name}</a></>}
        {run === undefined ? null : <> · <Badge status={run.status} /></>}
      </p>
      {answer === null ? (
        <form
          class="decision"
          onSubmit={(event) => {
            event.preventDefault();
          }}
        >
          <label for="approval-comment">Comment (optional)</label>
          <textarea id="approval-comment" rows={3} maxLength={4000} value={comment} onInput={(event) => setComment(event.currentTarget.value)} />
          <div class="actions">
            <button type="button" class="primary" disabled={busy} onClick={() => void decide('Approve')}>
              Approve
            </button>
            <button type="button" class="danger" disabled={busy} onClick={() => void decide('Reject')}>
              Reject
            </button>
          </div>
        </form>
      ) : (
        <p class="notice" role="status">
          {answer.decision === 'Approve' ? 'Approved' : 'Rejected'}.{' '}
          {run !== undefined && FINAL.has(run.status) ? `The run ended: ${run.status}.` : 'The run goes on; its steps update below.'}
        </p>
      )}
      <ProblemNotice error={error} context="The answer was not accepted" />
      <ProblemNotice error={workflow.error ?? live.error} />
      {workflow.value !== undefined && run !== undefined ? <RunGraph workflow={workflow.value} run={run} /> : null}
    </article>
  );
}
