// The envelope's spend limits (DESIGN §16): dollars per run, per UTC day and per UTC month, each
// absent (null) for no limit. Roles combine to the smallest of each; a subject entry wins outright.

export interface Budget {
  readonly maxUsdPerRun: number | null;
  readonly maxUsdPerDay: number | null;
  readonly maxUsdPerMonth: number | null;
}

export const NO_BUDGET: Budget = Object.freeze({ maxUsdPerRun: null, maxUsdPerDay: null, maxUsdPerMonth: null });

const smaller = (a: number | null, b: number | null): number | null => (a === null ? b : b === null ? a : Math.min(a, b));

/** The smallest of each limit; a limit one side leaves out is the other side's. */
export function minBudget(a: Budget, b: Budget): Budget {
  return { maxUsdPerRun: smaller(a.maxUsdPerRun, b.maxUsdPerRun), maxUsdPerDay: smaller(a.maxUsdPerDay, b.maxUsdPerDay), maxUsdPerMonth: smaller(a.maxUsdPerMonth, b.maxUsdPerMonth) };
}

/** True when any limit is set: only then is a model call checked before it is made. */
export const hasLimit = (budget: Budget): boolean => budget.maxUsdPerRun !== null || budget.maxUsdPerDay !== null || budget.maxUsdPerMonth !== null;

/** A configured budget in canonical form (a negative or non-finite limit cannot pass the codec; kept defensive). */
export function normalizeBudget(budget: Budget | undefined): Budget {
  if (budget === undefined) return NO_BUDGET;
  const limit = (value: number | null): number | null => (value === null || !Number.isFinite(value) ? null : Math.max(0, value));
  return Object.freeze({ maxUsdPerRun: limit(budget.maxUsdPerRun), maxUsdPerDay: limit(budget.maxUsdPerDay), maxUsdPerMonth: limit(budget.maxUsdPerMonth) });
}
