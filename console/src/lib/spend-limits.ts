// Reading spend limits (DESIGN §16): a limit as text, and how near a period's spend is to its limit.
// "warn" starts at 80 %, where the service logs spend.threshold; "reached" once the remaining budget
// is no longer above zero, when the service refuses the next model call.
import { dollars } from './format';

/** A limit in dollars, or "no limit" for null. */
export function limitText(limitUsd: number | null): string {
  return limitUsd === null ? 'no limit' : dollars(limitUsd);
}

export type SpendLevel = 'unlimited' | 'ok' | 'warn' | 'reached';

export const WARN_SHARE = 0.8;

export function spendLevel(spentUsd: number, limitUsd: number | null): SpendLevel {
  if (limitUsd === null) return 'unlimited';
  if (spentUsd >= limitUsd) return 'reached';
  return spentUsd >= limitUsd * WARN_SHARE ? 'warn' : 'ok';
}

/** The share of the limit spent in whole percent, rounded down so that 100 % only shows once reached. */
export function usedPercent(spentUsd: number, limitUsd: number): number {
  return limitUsd > 0 ? Math.floor((spentUsd / limitUsd) * 100) : 100;
}
