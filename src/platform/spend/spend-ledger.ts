// Spend counted once, for every family and every instance (DESIGN §16, decision 1601). Each model call
// the owner's work makes is checked before it is made (`allows`: the remaining budget must be above
// zero; only limits that are set are read) and priced after it finished from the usage the provider
// reported (`record`: one atomic addition to the owner's day, month and run totals). The call that
// crosses a limit completes; the next is refused. Crossing 80 % of a day or month limit is written once
// per period across instances — the addition that straddles it inserts a marker record whose key is
// the period, with the `spend.threshold` webhook event in the same commit — and audited by whoever
// inserted it.
import type { AuditLog } from '../audit/index.js';
import type { Clock } from '../clock/index.js';
import { isoInstant } from '../clock/index.js';
import { hasLimit, type Budget } from '../envelope/index.js';
import type { CounterFamily } from '../metrics/index.js';
import type { EventOutbox } from '../outbox/index.js';
import type { RecordStore, SpendCounters } from '../storage/index.js';
import { costUsd, type Pricing } from './cost.js';
import { dayOf, monthOf, runOf, type Period } from './periods.js';
import type { SpendAccount } from './spend-account.js';

/** Share of a day or month limit whose crossing is announced. */
export const THRESHOLD = 4 / 5;
const THRESHOLD_COLLECTION = 'spend-threshold';
const NANO = 1e9;

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface SpendSummary {
  readonly currency: 'USD';
  readonly limits: { readonly perRun: number | null; readonly perDay: number | null; readonly perMonth: number | null };
  readonly day: { readonly spentUsd: number; readonly resetsAt: string };
  readonly month: { readonly spentUsd: number; readonly resetsAt: string };
}

export interface SpendLedgerOptions {
  readonly counters: SpendCounters;
  /** Where the once-per-period threshold markers are kept (with their outbox). */
  readonly records: RecordStore;
  readonly clock: Clock;
  readonly pricing: Pricing;
  readonly spendUsd: CounterFamily;
  readonly audit: AuditLog;
  readonly events: EventOutbox;
}

interface ThresholdMarker {
  readonly period: 'day' | 'month';
  readonly limitUsd: number;
}

export class SpendLedger {
  readonly #options: SpendLedgerOptions;

  constructor(options: SpendLedgerOptions) {
    this.#options = options;
  }

  /** True while every limit the account has still has something left. */
  async allows(account: SpendAccount): Promise<boolean> {
    const { budget } = account;
    if (!hasLimit(budget)) return true;
    const now = this.#options.clock.now();
    const checked = limitsOf(budget, account.runId, now);
    const spent = await this.#options.counters.read(
      account.ownerId,
      checked.map((limit) => limit.period.key),
    );
    return checked.every((limit, i) => nanoOf(limit.usd) - spent[i]! > 0);
  }

  /** Counts a finished call's priced usage against the owner's totals; answers its cost in dollars. */
  async record(account: SpendAccount, usage: TokenUsage, model: string): Promise<number> {
    const cost = costUsd({ input: count(usage.inputTokens), output: count(usage.outputTokens) }, this.#options.pricing);
    const nano = nanoOf(cost);
    if (nano <= 0) return 0;
    const now = this.#options.clock.now();
    const day = dayOf(now);
    const month = monthOf(now);
    const run = runOf(account.runId, now);
    const [dayTotal, monthTotal] = await this.#options.counters.add(
      account.ownerId,
      [
        { period: day.key, expiresAt: day.endsAt },
        { period: month.key, expiresAt: month.endsAt },
        { period: run.key, expiresAt: run.endsAt },
      ],
      nano,
    );
    this.#options.spendUsd.child(account.family, model).inc(cost);
    await this.#announce(account, { period: 'day', limitUsd: account.budget.maxUsdPerDay }, day, dayTotal!, nano, now);
    await this.#announce(account, { period: 'month', limitUsd: account.budget.maxUsdPerMonth }, month, monthTotal!, nano, now);
    return cost;
  }

  async summary(ownerId: string, budget: Budget): Promise<SpendSummary> {
    const now = this.#options.clock.now();
    const day = dayOf(now);
    const month = monthOf(now);
    const [daySpent, monthSpent] = await this.#options.counters.read(ownerId, [day.key, month.key]);
    return {
      currency: 'USD',
      limits: { perRun: budget.maxUsdPerRun, perDay: budget.maxUsdPerDay, perMonth: budget.maxUsdPerMonth },
      day: { spentUsd: daySpent! / NANO, resetsAt: isoInstant(day.endsAt) },
      month: { spentUsd: monthSpent! / NANO, resetsAt: isoInstant(month.endsAt) },
    };
  }

  /** Removes markers of periods that ended. */
  async sweep(): Promise<void> {
    await this.#options.records.sweep(THRESHOLD_COLLECTION);
  }

  /** The addition that took the total from below 80 % of the limit to at or above it marks the period once. */
  async #announce(account: SpendAccount, marker: { readonly period: 'day' | 'month'; readonly limitUsd: number | null }, period: Period, total: number, added: number, now: number): Promise<void> {
    if (marker.limitUsd === null) return;
    const threshold = nanoOf(marker.limitUsd) * THRESHOLD;
    if (!(total - added < threshold && total >= threshold)) return;
    const { ownerId } = account;
    const outbox = await this.#options.events.entriesFor({ type: 'spend.threshold', ownerId, data: { period: marker.period, status: 'ThresholdCrossed', url: '/api/spend' } }, now);
    const inserted = await this.#options.records.insert<ThresholdMarker>(
      { collection: THRESHOLD_COLLECTION, ownerId, id: period.key, state: 'Crossed', createdAt: now, expiresAt: period.endsAt, data: { period: marker.period, limitUsd: marker.limitUsd } },
      undefined,
      outbox,
    );
    if (inserted.outcome !== 'inserted') return;
    this.#options.audit.spendThreshold(ownerId, { period: marker.period, periodKey: period.key, limitUsd: marker.limitUsd, spentUsd: total / NANO }, account.family);
  }
}

interface CheckedLimit {
  readonly period: Period;
  readonly usd: number;
}

function limitsOf(budget: Budget, runId: string, now: number): CheckedLimit[] {
  const checked: CheckedLimit[] = [];
  if (budget.maxUsdPerRun !== null) checked.push({ period: runOf(runId, now), usd: budget.maxUsdPerRun });
  if (budget.maxUsdPerDay !== null) checked.push({ period: dayOf(now), usd: budget.maxUsdPerDay });
  if (budget.maxUsdPerMonth !== null) checked.push({ period: monthOf(now), usd: budget.maxUsdPerMonth });
  return checked;
}

/** Dollars as whole nano-dollars, the unit totals are kept in (so 0.01 × 0.8 compares exactly). */
const nanoOf = (usd: number): number => Math.round(usd * NANO);

function count(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}
