// When a delivery that did not get a 2xx is attempted again (DESIGN.md §14): 5 s, 5 min, 30 min, 2 h,
// 5 h, 10 h after the attempt that failed; a MaxAttempts above 7 keeps retrying every 10 h.
const DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000] as const;

/** The wait after failed attempt number `attempt` (1-based). */
export function retryDelayMs(attempt: number): number {
  return DELAYS_MS[Math.min(attempt, DELAYS_MS.length) - 1] ?? DELAYS_MS[0];
}
