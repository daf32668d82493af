// The approvals inbox (DESIGN §13): workflow gates and tool calls waiting for a person, in two tabs —
// Mine (approvals of my runs) and To decide (those routed to my approver or escalation roles) —
// refreshed live. Pick one to see what it asks (tool, operation, redacted arguments, risk tier, the
// rule that asked, who asked, time left) and decide it through POST /api/approvals/{id}/decision with
// a comment and, for a typed gate, an answer generated from its responseSchema. A workflow approval
// shows its run's step graph, followed until the run finishes or parks again.
import { useState } from 'preact/hooks';
import { ApiError } from '../api/api-error';
import type { Approval, WorkflowDetail } from '../api/types';
import { Badge, Empty, Facts, ProblemNotice, Verbatim } from '../components/common';
import { RunGraph } from '../components/run-graph';
import { SchemaForm } from '../components/schema-form';
import { useApi } from '../lib/api-context';
import { asText, prettyJson, timeLeft, when } from '../lib/format';
import { FINAL, useLiveRun } from '../lib/live-run';
import { href, navigate, useTitle } from '../lib/router';
import { parametersOf, simpleFieldsOf, type FieldValues } from '../lib/schema-fields';
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
  const pending = approval.status === 'Pending';
  return (
    <article aria-labelledby="approval-heading">
      <h2 id="approval-heading">
        {titleOf(approval)} <Badge status={approval.status} />
      </h2>
      {approval.message === undefined ? null : <Verbatim text={approval.message} label="What it asks" />}
      <Facts
        items={[
          ['Kind', approval.kind === 'ToolCall' ? 'Tool call' : 'Human gate'],
          ...(approval.kind === 'ToolCall'
            ? ([
                ['Tool', <code>{approval.tool}</code>],
                ['Operation', <code>{approval.operation}</code>],
                ['Risk tier', approval.riskTier === undefined ? '—' : <Badge status={`risk-${approval.riskTier}`} label={approval.riskTier} />],
              ] as const)
            : []),
          ['Rule that asked', approval.reason],
          ['Requested by', approval.requestedBy ?? 'someone unnamed'],
          ['Asked', when(approval.createdAt)],
          ['Time left', pending ? <time dateTime={approval.expiresAt ?? undefined}>{timeLeft(approval.expiresAt, now)}</time> : '—'],
          ['Escalated', approval.escalated ? 'yes' : 'no'],
          ...(approval.stepName === undefined ? [] : ([['Step', approval.stepName]] as const)),
        ]}
      />
      {approval.kind === 'ToolCall' ? (
        <>
          <h3>Arguments</h3>
          {approval.arguments === null || approval.arguments === undefined ? (
            <p class="withheld">withheld (too large to show)</p>
          ) : (
            <Verbatim text={prettyJson(approval.arguments)} label="Arguments (redacted)" />
          )}
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

type PayloadRead = { ok: true; payload?: unknown } | { ok: false; message: string };

/** The decision form while the approval is pending, then what was decided; every refusal beside it. */
function Decision({ approval, onDecided }: { approval: Approval; onDecided: (approval: Approval) => void }) {
  const api = useApi();
  const schema = approval.responseSchema;
  const fields = schema === undefined ? null : simpleFieldsOf(schema);
  const [comment, setComment] = useState('');
  const [values, setValues] = useState<FieldValues>({});
  const [json, setJson] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const path = `/api/approvals/${encodeURIComponent(approval.approvalId)}`;

  // Only what cannot be sent is refused here; whether the answer meets the schema is the server's call.
  const payloadOf = (): PayloadRead => {
    if (schema === undefined) return { ok: true };
    if (fields !== null) {
      const read = parametersOf(fields, values, { checkRequired: false });
      return read.ok ? { ok: true, payload: read.parameters } : { ok: false, message: `${read.field} ${read.message}.` };
    }
    if (json.trim() === '') return { ok: true };
    try {
      return { ok: true, payload: JSON.parse(json) as unknown };
    } catch {
      return { ok: false, message: 'The answer must be JSON.' };
    }
  };

  const decide = async (decision: 'Approve' | 'Reject'): Promise<void> => {
    setProblem(null);
    setError(undefined);
    const read: PayloadRead = decision === 'Approve' ? payloadOf() : { ok: true };
    if (!read.ok) {
      setProblem(read.message);
      return;
    }
    setBusy(true);
    try {
      const body = { decision, ...(comment.trim() === '' ? {} : { comment }), ...(read.payload === undefined ? {} : { payload: read.payload }) };
      onDecided(await api.send<Approval>('POST', `${path}/decision`, body));
    } catch (caught) {
      setError(caught);
      if (caught instanceof ApiError && caught.status === 409) {
        // Decided otherwise, expired or withdrawn meanwhile: show it as it now stands.
        await api.get<Approval>(path).then(onDecided, () => undefined);
      }
    } finally {
      setBusy(false);
    }
  };

  const violations = error instanceof ApiError && error.status === 400 ? error.problem.violations : undefined;
  return (
    <>
      {approval.status === 'Pending' ? (
        <form
          class="decision"
          aria-label="Decision"
          onSubmit={(event) => {
            event.preventDefault();
          }}
        >
          {schema === undefined ? null : (
            <fieldset>
              <legend>Answer (sent with Approve)</legend>
              {fields !== null ? (
                <SchemaForm idPrefix="answer" fields={fields} values={values} onChange={setValues} />
              ) : (
                <>
                  <label for="approval-answer">Answer as JSON</label>
                  <textarea id="approval-answer" class="code" rows={5} spellcheck={false} value={json} onInput={(event) => setJson(event.currentTarget.value)} />
                  <Verbatim text={asText(schema)} label="Response schema the answer must meet" />
                </>
              )}
            </fieldset>
          )}
          {violations === undefined || violations.length === 0 ? null : (
            <div class="notice notice-error" role="alert">
              <strong>The answer does not meet the response schema:</strong>
              <ul class="violations">
                {violations.map((violation) => (
                  <li key={violation}>{violation}</li>
                ))}
              </ul>
            </div>
          )}
          {problem === null ? null : <p class="field-error" role="alert">{problem}</p>}
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
        <Outcome approval={approval} />
      )}
      {violations !== undefined && violations.length > 0 ? null : <RefusalNotice error={error} />}
    </>
  );
}

function RefusalNotice({ error }: { error: unknown }) {
  const status = error instanceof ApiError ? error.status : undefined;
  const context =
    status === 403
      ? 'You may not decide this approval (separation of duties)'
      : status === 409
        ? 'This approval can no longer be decided that way'
        : 'The decision was not accepted';
  return <ProblemNotice error={error} context={context} />;
}

function Outcome({ approval }: { approval: Approval }) {
  const decision = approval.decision;
  return (
    <div class="notice" role="status">
      {approval.status === 'Expired'
        ? 'Expired undecided: that counts as a rejection.'
        : approval.status === 'Withdrawn'
          ? 'Withdrawn: the run stopped before anyone decided.'
          : `${approval.status} by ${decision?.decidedBy ?? 'someone'} ${when(decision?.decidedAt)}${decision?.comment === undefined ? '.' : `: “${decision.comment}”`}`}
      {decision?.payload === undefined ? null : <Verbatim text={asText(decision.payload)} label="The answer given" />}
    </div>
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
