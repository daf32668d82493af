// What a run started from the evals page takes beside its settings (DESIGN §19): one of my live bundle
// handles as every case's subject, one of my Succeeded runs as the baseline, and whether a regression
// fails the run (offered only with a baseline).
import type { BundleHandle, EvalRun } from '../api/types';
import type { EvalRunOptions } from '../lib/eval-run-options';
import { when } from '../lib/format';

export function EvalRunOptionsFields({
  handles,
  runs,
  value,
  onChange,
}: {
  /** Undefined when bundles are off or cannot be listed for me: the field is left out. */
  handles: readonly BundleHandle[] | undefined;
  /** My recent runs; the Succeeded ones may be the baseline. */
  runs: readonly EvalRun[] | undefined;
  value: EvalRunOptions;
  onChange: (next: EvalRunOptions) => void;
}) {
  const baselines = (runs ?? []).filter((run) => run.status === 'Succeeded');
  return (
    <div class="fields">
      {handles === undefined ? null : (
        <div>
          <label for="eval-subject-handle">Subject</label>
          <select id="eval-subject-handle" value={value.handle} onChange={(event) => onChange({ ...value, handle: event.currentTarget.value })}>
            <option value="">Each dataset’s own subject</option>
            {handles.map((handle) => (
              <option key={handle.handle} value={handle.handle}>
                Bundle {handle.agentId} ({handle.handle})
              </option>
            ))}
          </select>
        </div>
      )}
      <div>
        <label for="eval-baseline">Baseline run</label>
        <select
          id="eval-baseline"
          value={value.baseline}
          onChange={(event) => {
            const baseline = event.currentTarget.value;
            onChange({ ...value, baseline, failOnRegression: baseline === '' ? false : value.failOnRegression });
          }}
        >
          <option value="">None</option>
          {baselines.map((run) => (
            <option key={run.jobId} value={run.jobId}>
              {run.jobId} · {run.datasets.join(', ') || '—'} · {run.verdict ?? '—'} · {when(run.createdAt)}
            </option>
          ))}
        </select>
        <label class="check">
          <input type="checkbox" checked={value.failOnRegression} disabled={value.baseline === ''} onChange={(event) => onChange({ ...value, failOnRegression: event.currentTarget.checked })} />{' '}
          Fail on regression
        </label>
      </div>
    </div>
  );
}
