// The periods spend is counted in (DESIGN §16): the UTC day and the UTC month an instant falls in, and
// one run. Each counter's key names its period, so a new day simply counts under a new key; the old
// one expires when its period ends.

export interface Period {
  /** The counter's key: `day:2026-11-27`, `month:2026-11`, `run:<jobId>`. */
  readonly key: string;
  /** When the period ends (epoch ms): the summary's `resetsAt`, the counter's expiry. */
  readonly endsAt: number;
}

/** How long a run's own total is kept after its last model call (a run may wait days for a person). */
export const RUN_TOTAL_KEPT_MS = 31 * 86_400_000;

export function dayOf(now: number): Period {
  const at = new Date(now);
  const start = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  return { key: `day:${new Date(start).toISOString().slice(0, 10)}`, endsAt: start + 86_400_000 };
}

export function monthOf(now: number): Period {
  const at = new Date(now);
  const start = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
  return { key: `month:${new Date(start).toISOString().slice(0, 7)}`, endsAt: Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1) };
}

export function runOf(jobId: string, now: number): Period {
  return { key: `run:${jobId}`, endsAt: now + RUN_TOTAL_KEPT_MS };
}
