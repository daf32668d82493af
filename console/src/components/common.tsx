// Small shared pieces: status badges, problem notices, empty states, key-value lists, instants.
import type { ComponentChildren } from 'preact';
import { ApiError, messageOf } from '../api/api-error';
import { zoned } from '../lib/format';
import type { Action } from '../lib/use-action';

/** A state as a coloured pill; `label` when the text shown differs from the state's class name. */
export function Badge({ status, label }: { status: string; label?: string }) {
  return <span class={`badge badge-${status.toLowerCase()}`}>{label ?? status}</span>;
}

/** A refused or failed call: the problem's title and detail, as text, announced to screen readers. */
export function ProblemNotice({ error, context }: { error: unknown; context?: string }) {
  if (error === undefined || error === null) return null;
  const problem = error instanceof ApiError ? error.problem : null;
  return (
    <div class="notice notice-error" role="alert">
      <strong>{context === undefined ? (problem?.title ?? 'Something went wrong') : `${context}: ${problem?.title ?? 'failed'}`}</strong>
      {problem?.detail !== undefined ? <p class="problem-detail">{problem.detail}</p> : problem === null ? <p>{messageOf(error)}</p> : null}
      {problem?.retryAfterSeconds !== undefined ? <p>Retry in {problem.retryAfterSeconds} s.</p> : null}
    </div>
  );
}

/** How the last of a page's actions went: its message, or its problem. */
export function ActionOutcome({ action }: { action: Action }) {
  return (
    <>
      <p role="status" class="hint">
        {action.said}
      </p>
      <ProblemNotice error={action.error} context="That did not work" />
    </>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

export function Facts({ items }: { items: readonly (readonly [string, ComponentChildren])[] }) {
  return (
    <dl class="facts">
      {items.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Any text that came from a model, a tool or a dataset: kept as text, whitespace preserved. */
export function Verbatim({ text, label }: { text: string; label?: string }) {
  return (
    <pre class="verbatim" {...(label === undefined ? {} : { 'aria-label': label })} tabIndex={0}>
      {text}
    </pre>
  );
}

/** An instant as the viewer's wall clock, the zone named; its UTC ISO form in the tooltip. */
export function Instant({ iso, none = '—' }: { iso: string | null | undefined; none?: string }) {
  if (iso === null || iso === undefined) return <>{none}</>;
  const date = new Date(iso);
  const utc = Number.isNaN(date.getTime()) ? iso : date.toISOString();
  return (
    <time dateTime={utc} title={`${utc} (UTC)`}>
      {zoned(iso)}
    </time>
  );
}
