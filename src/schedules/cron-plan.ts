// A schedule's cron read through croner (DESIGN.md §14): five fields, six (seconds first) only when
// MinIntervalSeconds is under 60, or @hourly/@daily/@weekly/@monthly; an IANA time zone, with DST as
// croner defines it (a time skipped by spring-forward fires at the first valid time after the gap; a
// fixed time repeated by fall-back fires once). Refusals are 400 problems that say what to change.
import { Cron } from 'croner';
import { ProblemError } from '../platform/problems/index.js';

export const CRON_NICKNAMES = ['@hourly', '@daily', '@weekly', '@monthly'] as const;
/** How many upcoming fires the interval check measures (a cron's pattern repeats well within them). */
const INTERVAL_SAMPLE = 240;

export interface CronRules {
  readonly minIntervalSeconds: number;
}

const refused = (detail: string): ProblemError => new ProblemError('validation-failed', detail);

/** The canonical IANA name of `name` (`utc` → `UTC`), or undefined when it names no zone (or is an offset). */
export function canonicalTimeZone(name: string): string | undefined {
  if (!/^[A-Za-z]/.test(name)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export class CronPlan {
  readonly #cron: Cron;

  private constructor(cron: Cron) {
    this.#cron = cron;
  }

  /** A stored (already accepted) cron, read again without the interval check. */
  static of(cron: string, timeZone: string): CronPlan {
    return new CronPlan(new Cron(cron, { timezone: timeZone, mode: cron.trim().split(/\s+/).length === 6 ? '5-or-6-parts' : '5-part' }));
  }

  /** Checks a cron and a time zone against the rules; throws a 400 problem saying what is wrong. */
  static accept(cron: string, timeZone: string, rules: CronRules, now: number): CronPlan {
    const fields = cron.split(/\s+/);
    const seconds = rules.minIntervalSeconds < 60;
    if (cron.startsWith('@')) {
      if (!(CRON_NICKNAMES as readonly string[]).includes(cron)) throw refused(`cron '${cron}' is not accepted; the nicknames are ${CRON_NICKNAMES.join(', ')}.`);
    } else if (fields.length === 6 && !seconds) {
      throw refused(
        `cron has six fields (seconds first), accepted only when AppConfig:Schedules:MinIntervalSeconds is under 60 (it is ${rules.minIntervalSeconds}); use five fields: minute hour day-of-month month day-of-week.`,
      );
    } else if (fields.length !== 5 && fields.length !== 6) {
      throw refused(`cron must have five fields (minute hour day-of-month month day-of-week)${seconds ? ', or six with seconds first' : ''}; it has ${fields.length}.`);
    }
    let plan: CronPlan;
    try {
      plan = CronPlan.of(cron, timeZone);
    } catch (err) {
      const reason = err instanceof Error ? err.message.replace(/^CronPattern:\s*/, '') : 'unreadable';
      throw refused(`cron is not a valid cron expression: ${reason.slice(0, 200)}`);
    }
    const upcoming = plan.#cron.nextRuns(INTERVAL_SAMPLE, new Date(now)).map((date) => date.getTime());
    if (upcoming.length === 0) throw refused('cron never fires: no date matches it.');
    const gap = Math.min(...upcoming.slice(1).map((at, index) => at - (upcoming[index] ?? at)));
    if (gap < rules.minIntervalSeconds * 1000) {
      throw refused(`cron fires ${gap / 1000} s apart at times; AppConfig:Schedules:MinIntervalSeconds requires at least ${rules.minIntervalSeconds} s between fires.`);
    }
    return plan;
  }

  /** The first fire strictly after `after`, or null when it never fires again. */
  next(after: number): number | null {
    return this.#cron.nextRun(new Date(after))?.getTime() ?? null;
  }

  /** The latest fire at or before `at`, or null when none came before. */
  latest(at: number): number | null {
    // croner counts a fire earlier in the reference's own second, so one millisecond on includes `at` itself.
    return this.#cron.previousRuns(1, new Date(at + 1))[0]?.getTime() ?? null;
  }
}
