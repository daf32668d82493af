// How long to wait before retry number `attempt` (0-based): the server's Retry-After /
// retry-after-ms when it sent one (capped), else exponential backoff with jitter.
export const MAX_RETRIES = 3;
export const BASE_DELAY_MS = 500;
export const MAX_DELAY_MS = 30_000;

export interface RetryDelayInput {
  readonly attempt: number;
  /** Lower-cased response headers of the failed attempt. */
  readonly headers: Readonly<Record<string, string>>;
  /** Milliseconds since the epoch, for HTTP-date Retry-After values. */
  readonly now: number;
  /** A number in [0, 1). */
  readonly random: number;
}

export function retryDelayMs({ attempt, headers, now, random }: RetryDelayInput): number {
  const advised = advisedDelayMs(headers, now);
  if (advised !== undefined) return Math.min(advised, MAX_DELAY_MS);
  const ceiling = Math.min(BASE_DELAY_MS * 2 ** attempt, MAX_DELAY_MS);
  // "Equal jitter": never less than half the step, so a herd of callers spreads out but still backs off.
  return Math.round(ceiling / 2 + (random * ceiling) / 2);
}

function advisedDelayMs(headers: Readonly<Record<string, string>>, now: number): number | undefined {
  const ms = headers['retry-after-ms'];
  if (ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.ceil(Number(ms));
  const after = headers['retry-after'];
  if (after === undefined || after.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(after)) return Math.ceil(Number(after) * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
