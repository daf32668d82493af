// The approvals inbox (DESIGN §13): workflow gates and tool calls waiting for a person, in two tabs —
// Mine (approvals of my runs) and To decide (those routed to my approver or escalation roles) —
// refreshed live. Pick one to see what it asks (tool, operation, redacted arguments, risk tier, the
// rule that asked, who asked, time left) and decide it through POST /api/approvals/{id}/decision with
// a comment and, for a typed gate, an answer generated from its responseSchema. A workflow approval
// shows its run's step graph, followed until the run finishes or parks again.
import { useState } from 'preact/hooks';
import type { Approval, WorkflowDetail } from '../api/types';
import { Decision, RedactedArguments, TimeLeft, toolCallFacts } from '../components/approval-parts';
import { Badge, Empty, Facts, ProblemNotice, Verbatim } from '../components/common';
import { RunGraph } from '../components/run-graph';
import { useApi } from '../lib/api-context';
import { timeLeft, when } from '../lib/format';
import { FINAL, useLiveRun } from '../lib/live-run';
import { href, navigate, useTitle } from '../lib/router';
import { useAsync } from '../lib/use-async';
import { useNow } from '../lib/use-now';

const INBOX_REFRESH_MS = 3000;

export type ApprovalScope = 'mine' | 'approver';

const TABS: readonly { readonly scope: ApprovalScope; readonly label: string; readonly route: readonly string[]; readonly empty: string }[] = [
  { scope: 'mine', label: 'Mine', route: ['approvals'], empty: 'None of your runs is waiting for a decision.' },
  { scope: 'approver', label: 'To decide', route: ['approvals', 'to-decide'], empty: 'Nothing is routed to your roles.' },
];

const tabId = (scope: ApprovalScope): string => `approvals-tab-${scope}`;

function titleOf(approval: Approval): string {
  return approval.kind === 'ToolCall' ? `Tool call ${approval.tool ?? '?'}.${approval.operation ?? '?'}` : `Gate “${approval.stepName ?? '?'}”`;
}

export function ApprovalsPage({ scope }: { scope: ApprovalScope }) {
  useTitle(scope === 'mine' ? 'Approvals' : 'Approvals to decide');
  const api = useApi();
  const now = useNow();
  const inbox = useAsync(
    async (signal) => ({ scope, ...(await api.get<{ approvals: Approval[] }>(`/api/approvals?scope=${scope}&limit=200`, signal)) }),
    [api, scope],
    INBOX_REFRESH_MS,
  );
  const [selected, setSelected] = useState<{ scope: ApprovalScope; approval: Approval } | null>(null);
  // The other tab's list stays in `inbox` until this tab's arrives: never show it here.
  const approvals = inbox.value?.scope === scope ? inbox.value.approvals : undefined;
  const chosen = selected?.scope === scope ? selected.approval : null;
  // A decided approval stays on screen as decided; a pending one is shown as the inbox last read it.
  const current = (chosen?.status === 'Pending' ? approvals?.find((a) => a.approvalId === chosen.approvalId) : undefined) ?? chosen ?? approvals?.[0] ?? null;
  const tab = TABS.find((t) => t.scope === scope)!;

  const onTabKey = (event: KeyboardEvent): void => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft' && event.key !== 'Home' && event.key !== 'End') return;
    event.preventDefault();
    const index = TABS.indexOf(tab);
    const next = event.key === 'Home' ? TABS[0]! : event.key === 'End' ? TABS.at(-1)! : TABS[(index + (event.key === 'ArrowRight' ? 1 : TABS.length - 1)) % TABS.length]!;
    navigate(...next.route);
    document.getElementById(tabId(next.scope))?.focus();
  };

  return (
    <section class="split">
      <div class="pane">
        <h1>Approvals</h1>
        <div class="tabs" role="tablist" aria-label="Whose approvals">
          {TABS.map((t) => (
            <button
              key={t.scope}
              type="button"
              role="tab"
              id={tabId(t.scope)}
              aria-selected={t.scope === scope}
              aria-controls="approvals-panel"
              tabIndex={t.scope === scope ? 0 : -1}
              onClick={() => navigate(...t.route)}
              onKeyDown={onTabKey}
            >
              {t.label}
            </button>
          ))}
        </div>
        <div role="tabpanel" id="approvals-panel" aria-labelledby={tabId(scope)} tabIndex={0}>
          <p class="hint" aria-live="polite">
            {approvals === undefined ? 'Loading…' : `${approvals.length} pending · refreshed live`}
          </p>
          <ProblemNotice error={inbox.error} context="The inbox could not be loaded" />
          {approvals !== undefined && approvals.length === 0 ? <Empty>{tab.empty}</Empty> : null}
          <ul class="cards" aria-label="Pending approvals">
            {(approvals ?? []).map((approval) => (
              <li key={approval.approvalId}>
                <button
                  type="button"
                  class={`card${current?.approvalId === approval.approvalId ? ' selected' : ''}`}
                  aria-pressed={current?.approvalId === approval.approvalId}
                  onClick={() => setSelected({ scope, approval })}
                >
                  <span class="card-title">
                    {titleOf(approval)}
                    {approval.escalated ? <> <Badge status="warn" label="escalated" /></> : null}
                  </span>
                  <span class="card-text">{approval.kind === 'ToolCall' ? `${approval.reason}${approval.riskTier === undefined ? '' : ` · risk ${approval.riskTier}`}` : approval.message}</span>
                  <span class="card-meta">
                    asked by {approval.requestedBy ?? 'someone unnamed'} {when(approval.createdAt)} · {timeLeft(approval.expiresAt, now)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div class="pane wide">
        {current === null ? (
          <Empty>Select an approval to see what it asks.</Empty>
        ) : (
          <ApprovalDetail
            key={current.approvalId}
            approval={current}
            now={now}
            onDecided={(approval) => {
              // Keep the decided approval on screen to watch its run go on, while the inbox drops it.
              setSelected({ scope, approval });
              inbox.reload();
            }}
          />
        )}
      </div>
    </section>
  );
}

function ApprovalDetail({ approval, now, onDecided }: { approval: Approval; now: number; onDecided: (approval: Approval) => void }) {
  return (
    <article aria-labelledby="approval-heading">
      <h2 id="approval-heading">
        {titleOf(approval)} <Badge status={approval.status} />
      </h2>
      {approval.message === undefined ? null : <Verbatim text={approval.message} label="What it asks" />}
      <Facts
        items={[
          ['Kind', approval.kind === 'ToolCall' ? 'Tool call' : 'Human gate'],
          ...(approval.kind === 'ToolCall' ? toolCallFacts(approval) : []),
          ['Rule that asked', approval.reason],
          ['Requested by', approval.requestedBy ?? 'someone unnamed'],
          ['Asked', when(approval.createdAt)],
          ['Time left', <TimeLeft approval={approval} now={now} />],
          ['Escalated', approval.escalated ? 'yes' : 'no'],
          ...(approval.stepName === undefined ? [] : ([['Step', approval.stepName]] as const)),
        ]}
      />
      {approval.kind === 'ToolCall' ? (
        <>
          <h3>Arguments</h3>
          <RedactedArguments approval={approval} />
        </>
      ) : null}
      <Decision approval={approval} onDecided={onDecided} />
      {approval.runKind === 'workflow' && approval.workflowId !== undefined ? (
        <WorkflowRun approval={approval} workflowId={approval.workflowId} />
      ) : (
        <p>
          Bundle run <code>{approval.jobId}</code>
          {approval.handle === undefined ? null : (
            <>
              {' '}
              of handle <a href={href('bundles', approval.handle)}>{approval.handle}</a> (its runs are listed there)
            </>
          )}
        </p>
      )}
    </article>
  );
}

/** A workflow approval's run: links, state, and its step graph followed live. */
function WorkflowRun({ approval, workflowId }: { approval: Approval; workflowId: string }) {
  const api = useApi();
  const workflow = useAsync((signal) => api.get<WorkflowDetail>(`/api/workflows/${encodeURIComponent(workflowId)}`, signal), [api, workflowId]);
  // Follow the run again as soon as the approval is decided, rather than at the next poll.
  const live = useLiveRun(api, workflowId, approval.jobId, approval.status === 'Pending' ? 0 : 1);
  const run = live.run;
  return (
    <>
      <p>
        Run <a href={href('workflows', workflowId, 'runs', approval.jobId)}>{approval.jobId}</a>
        {workflow.value === undefined ? null : <> of workflow <a href={href('workflows', workflowId)}>{workflow.value.name}</a></>}
        {run === undefined ? null : <> · <Badge status={run.status} /></>}
      </p>
      {approval.status === 'Pending' || run === undefined ? null : (
        <p class="hint" role="status">
          {FINAL.has(run.status) ? `The run ended: ${run.status}.` : 'The run goes on; its steps update below.'}
        </p>
      )}
      <ProblemNotice error={workflow.error ?? live.error} />
      {workflow.value !== undefined && run !== undefined ? <RunGraph workflow={workflow.value} run={run} /> : null}
    </>
  );
}
