// What the approvals inbox and the bundle chat show alike of one approval (DESIGN §13): a tool call's
// facts and redacted arguments, the decision form (POST /api/approvals/{id}/decision, with a comment
// and, for a typed gate, an answer generated from its responseSchema), how it was decided, and why a
// decision was refused.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../api/api-error';
import type { Approval } from '../api/types';
import { useApi } from '../lib/api-context';
import { asText, prettyJson, timeLeft, when } from '../lib/format';
import { parametersOf, simpleFieldsOf, type FieldValues } from '../lib/schema-fields';
import { Badge, ProblemNotice, Verbatim } from './common';
import { SchemaForm } from './schema-form';

/** The Facts rows of a tool call: tool, operation, risk tier. */
export function toolCallFacts(approval: Approval): (readonly [string, ComponentChildren])[] {
  return [
    ['Tool', <code>{approval.tool}</code>],
    ['Operation', <code>{approval.operation}</code>],
    ['Risk tier', approval.riskTier === undefined ? '—' : <Badge status={`risk-${approval.riskTier}`} label={approval.riskTier} />],
  ];
}

/** The countdown to an approval's expiry while it waits. */
export function TimeLeft({ approval, now }: { approval: Approval; now: number }) {
  return approval.status === 'Pending' ? <time dateTime={approval.expiresAt ?? undefined}>{timeLeft(approval.expiresAt, now)}</time> : <>—</>;
}

/** A tool call's arguments as the approval keeps them: redacted, or withheld above the frame ceiling. */
export function RedactedArguments({ approval }: { approval: Approval }) {
  return approval.arguments === null || approval.arguments === undefined ? (
    <p class="withheld">withheld (too large to show)</p>
  ) : (
    <Verbatim text={prettyJson(approval.arguments)} label="Arguments (redacted)" />
  );
}

type PayloadRead = { ok: true; payload?: unknown } | { ok: false; message: string };

export interface DecisionProps {
  readonly approval: Approval;
  readonly onDecided: (approval: Approval) => void;
  /** Told when the service refuses this viewer the decision (403: separation of duties). */
  readonly onForbidden?: () => void;
  /** Shown instead of the form while the approval waits, when this viewer is known not to decide it. */
  readonly cannotDecide?: ComponentChildren;
}

/** The decision form while the approval is pending, then what was decided; every refusal beside it. */
export function Decision({ approval, onDecided, onForbidden, cannotDecide }: DecisionProps) {
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
  // Unique on a page that shows more than one approval (the bundle chat's transcript).
  const id = (name: string): string => `${name}-${approval.approvalId}`;

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
      if (caught instanceof ApiError && caught.status === 403) onForbidden?.();
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
      {approval.status === 'Pending' && cannotDecide !== undefined ? (
        cannotDecide
      ) : approval.status === 'Pending' ? (
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
                <SchemaForm idPrefix={id('answer')} fields={fields} values={values} onChange={setValues} />
              ) : (
                <>
                  <label for={id('approval-answer')}>Answer as JSON</label>
                  <textarea id={id('approval-answer')} class="code" rows={5} spellcheck={false} value={json} onInput={(event) => setJson(event.currentTarget.value)} />
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
          <label for={id('approval-comment')}>Comment (optional)</label>
          <textarea id={id('approval-comment')} rows={3} maxLength={4000} value={comment} onInput={(event) => setComment(event.currentTarget.value)} />
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

/** A refused decision, said as what it means: 403 separation of duties, 409 decided otherwise. */
export function RefusalNotice({ error }: { error: unknown }) {
  const status = error instanceof ApiError ? error.status : undefined;
  const context =
    status === 403
      ? 'You may not decide this approval (separation of duties)'
      : status === 409
        ? 'This approval can no longer be decided that way'
        : 'The decision was not accepted';
  return <ProblemNotice error={error} context={context} />;
}

/** How a decided, expired or withdrawn approval ended. */
export function Outcome({ approval }: { approval: Approval }) {
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
