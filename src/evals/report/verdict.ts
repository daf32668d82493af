// The run's verdict (DESIGN.md §7): Fail when (failed + errored) / total exceeds failRateThreshold,
// otherwise Warn when any case only warned, otherwise Pass.
import type { Verdict } from '../schemas.js';
import type { Tally } from './tally.js';

export function failRate(counts: Tally): number {
  const total = counts.passed + counts.failed + counts.warned + counts.errored;
  return total === 0 ? 0 : (counts.failed + counts.errored) / total;
}

export function verdictOf(counts: Tally, failRateThreshold: number): Verdict {
  if (failRate(counts) > failRateThreshold) return 'Fail';
  return counts.warned > 0 ? 'Warn' : 'Pass';
}
