// The storage port's spend counters (DESIGN §16): per owner, one running total per period (a UTC day,
// a UTC month, one run), in nano-dollars so sums are exact integers. Additions are atomic and answer
// the new totals, so every instance on one storage counts the same spend; a counter past its
// `expiresAt` reads as zero and restarts at its next addition.

export interface SpendCounter {
  /** Which total: the period's key (`day:2026-11-27`, `month:2026-11`, `run:<jobId>`). */
  readonly period: string;
  /** When the total stops counting (the period's end, plus what the summary may still show). */
  readonly expiresAt: number;
}

export interface SpendCounters {
  /** The owner's totals for `periods`, in order (0 for one never counted or expired). */
  read(ownerId: string, periods: readonly string[]): Promise<readonly number[]>;
  /** Adds `nanoUsd` (a non-negative integer) to each of the owner's counters at once; their new totals, in order. */
  add(ownerId: string, counters: readonly SpendCounter[], nanoUsd: number): Promise<readonly number[]>;
}
