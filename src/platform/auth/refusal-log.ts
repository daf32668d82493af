// Aggregates token refusals for the log, so a flood of bad tokens cannot fill a disk or drown real
// events: per reason, the first refusal is logged at once and the rest of its interval are counted;
// when the interval ends, one line carries that count and opens the next interval. At most one line
// per reason per interval, every line the same shape `{ event, category, reason, count, token }`
// ('bearer authentication failed'): the audit event `auth.token.refused` (docs/audit-events.md),
// aggregated; `token` is the digest prefix of the last refused token counted. It does not decide
// anything about the request: every refusal is still the same 401.
import type { AuthFailureCategory } from './auth-failure.js';
import type { AuthLog } from './authenticator.js';

export const REFUSAL_MESSAGE = 'bearer authentication failed';
export const TOKEN_REFUSED_EVENT = 'auth.token.refused';
/** Distinct reasons tracked at once; beyond them refusals count together under OTHER_REASONS. */
export const MAX_TRACKED_REASONS = 64;
export const OTHER_REASONS = 'other reasons (too many distinct reasons to list)';

interface Window {
  count: number;
  token: string | null;
  category: AuthFailureCategory;
  readonly timer: NodeJS.Timeout;
}

export class RefusalLog {
  readonly #log: AuthLog;
  readonly #intervalMs: number;
  readonly #windows = new Map<string, Window>();

  constructor(log: AuthLog, intervalMs: number) {
    this.#log = log;
    this.#intervalMs = intervalMs;
  }

  record(reason: string, token: string | null, category: AuthFailureCategory = 'other'): void {
    const key = this.#windows.has(reason) || this.#windows.size < MAX_TRACKED_REASONS ? reason : OTHER_REASONS;
    const window = this.#windows.get(key);
    if (window === undefined) {
      this.#log.warn(line(key, category, 1, token), REFUSAL_MESSAGE);
      this.#open(key, category);
    } else {
      window.count += 1;
      window.token = token;
      window.category = category;
    }
  }

  /** Logs what is still counted and stops the timers. */
  close(): void {
    for (const [reason, window] of this.#windows) {
      clearTimeout(window.timer);
      if (window.count > 0) this.#log.warn(line(reason, window.category, window.count, window.token), REFUSAL_MESSAGE);
    }
    this.#windows.clear();
  }

  #open(reason: string, category: AuthFailureCategory): void {
    const timer = setTimeout(() => this.#end(reason), this.#intervalMs);
    timer.unref();
    this.#windows.set(reason, { count: 0, token: null, category, timer });
  }

  /** The interval is over: report what it counted, which opens the next one; a quiet interval closes. */
  #end(reason: string): void {
    const window = this.#windows.get(reason);
    this.#windows.delete(reason);
    if (window === undefined || window.count === 0) return;
    this.#log.warn(line(reason, window.category, window.count, window.token), REFUSAL_MESSAGE);
    this.#open(reason, window.category);
  }
}

function line(reason: string, category: AuthFailureCategory, count: number, token: string | null): object {
  return { event: TOKEN_REFUSED_EVENT, category, reason, count, token };
}
