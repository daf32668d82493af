// The storage port's per-caller request counters: fixed one-minute windows per (policy, key), opened at
// the key's first request. Shared by every instance on the same storage, so a caller's limit counts
// across all of them.

export const RATE_WINDOW_MS = 60_000;

export type RateDecision =
  | { readonly allowed: true; readonly remaining: number }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

export interface RateWindows {
  /** Counts one request against the key's window. */
  take(policy: string, key: string, permitsPerMinute: number): Promise<RateDecision>;
}
