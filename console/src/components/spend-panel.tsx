// My spend this UTC day and month against my limits (GET /api/spend, DESIGN §16): a meter for each
// limited period, a warning from 80 %, and once a limit is reached, until when model calls are refused,
// in the viewer's own zone. Read again every 30 s while the tab is visible and whenever the window
// regains focus. It only shows: limits are set in configuration, not here.
import type { Spend, SpendTotal } from '../api/types';
import { useApi } from '../lib/api-context';
import { dollars } from '../lib/format';
import { limitText, spendLevel, usedPercent, WARN_SHARE } from '../lib/spend-limits';
import { useAsync } from '../lib/use-async';
import { useOnFocus } from '../lib/use-on-focus';
import { Instant, ProblemNotice } from './common';

const REFRESH_MS = 30_000;

export function SpendPanel() {
  const api = useApi();
  const spend = useAsync((signal) => api.get<Spend>('/api/spend', signal), [api], REFRESH_MS);
  useOnFocus(() => spend.reload());
  const value = spend.value;
  return (
    <section class="spend" aria-labelledby="spend-heading">
      <h2 id="spend-heading">Spend</h2>
      <ProblemNotice error={spend.error} context="Your spend could not be read" />
      {value === undefined ? null : (
        <>
          <div class="spend-periods">
            <SpendPeriod id="spend-day" title="Today (UTC day)" total={value.day} limit={value.limits.perDay} />
            <SpendPeriod id="spend-month" title="This month (UTC)" total={value.month} limit={value.limits.perMonth} />
          </div>
          <p class="meta">
            Per run: {limitText(value.limits.perRun)}
            {value.limits.perRun === null ? '' : ' (a run stops once it has spent this)'}. Every model call your work makes counts: bundle runs,
            workflow LLM steps, eval cases and their grading.
          </p>
        </>
      )}
    </section>
  );
}

function SpendPeriod({ id, title, total, limit }: { id: string; title: string; total: SpendTotal; limit: number | null }) {
  const level = spendLevel(total.spentUsd, limit);
  const figure = limit === null ? `${dollars(total.spentUsd)} spent, no limit` : `${dollars(total.spentUsd)} of ${dollars(limit)} (${usedPercent(total.spentUsd, limit)} %)`;
  return (
    <div class={`spend-period spend-${level}`} role="group" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{title}</h3>
      <p class="spend-figure">{figure}</p>
      {limit === null || limit <= 0 ? null : (
        // A reached limit fills the bar; `high` drops to the warning mark so the browser draws it as over.
        <meter
          min={0}
          max={limit}
          low={limit * WARN_SHARE}
          high={level === 'reached' ? limit * WARN_SHARE : limit}
          optimum={0}
          value={Math.min(total.spentUsd, limit)}
          aria-labelledby={`${id}-title`}
          aria-valuetext={figure}
        >
          {figure}
        </meter>
      )}
      {level === 'reached' ? (
        <p class="spend-state">
          Limit reached: new model calls are refused until <Instant iso={total.resetsAt} />.
        </p>
      ) : (
        <p class={level === 'warn' ? 'spend-state' : 'meta'}>
          {level === 'warn' ? 'Nearing the limit. ' : ''}Resets <Instant iso={total.resetsAt} />.
        </p>
      )}
    </div>
  );
}
