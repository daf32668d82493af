import { describe, expect, it } from 'vitest';
import { AuditLog } from '../audit/index.js';
import { ManualClock } from '../clock/index.js';
import { NO_BUDGET, type Budget } from '../envelope/index.js';
import { ServiceMetrics } from '../metrics/index.js';
import type { EventOutbox, ResourceEvent } from '../outbox/index.js';
import { createMemoryStorage } from '../storage/index.js';
import { SpendLedger } from './spend-ledger.js';
import type { SpendAccount } from './spend-account.js';

// $1 per million input tokens: 1,000 input tokens cost $0.001.
const usage = (inputTokens: number) => ({ inputTokens, outputTokens: 0 });

function setup(start = Date.parse('2026-05-04T23:00:00Z')) {
  const clock = new ManualClock(start);
  const storage = createMemoryStorage({ clock });
  const audited: object[] = [];
  const events: ResourceEvent[] = [];
  const outbox: EventOutbox = { entriesFor: async (event) => (events.push(event), []) };
  const ledger = new SpendLedger({
    counters: storage.spend,
    records: storage.records,
    clock,
    pricing: { inputPerMillionTokens: 1, outputPerMillionTokens: 0 },
    spendUsd: new ServiceMetrics({ enabled: true }).spendUsd,
    audit: new AuditLog({ info: (line) => audited.push(line) }),
    events: outbox,
  });
  const account = (budget: Partial<Budget>, runId = 'job-1'): SpendAccount => ({ ownerId: 'sub:alice', family: 'bundle', runId, budget: { ...NO_BUDGET, ...budget } });
  return { clock, ledger, audited, events, account };
}

describe('SpendLedger', () => {
  it('allows calls while something is left, counting the crossing call, and refuses the next', async () => {
    const { ledger, account } = setup();
    const capped = account({ maxUsdPerDay: 0.002 });
    expect(await ledger.allows(capped)).toBe(true);
    expect(await ledger.record(capped, usage(1_500), 'm')).toBe(0.0015);
    expect(await ledger.allows(capped)).toBe(true);
    await ledger.record(capped, usage(1_500), 'm'); // $0.003: crosses and is counted
    expect(await ledger.allows(capped)).toBe(false);
    expect((await ledger.summary('sub:alice', capped.budget)).day.spentUsd).toBe(0.003);
  });

  it('refuses at once under a zero limit, and never under no limit', async () => {
    const { ledger, account } = setup();
    expect(await ledger.allows(account({ maxUsdPerMonth: 0 }))).toBe(false);
    await ledger.record(account({}), usage(1_000_000_000), 'm');
    expect(await ledger.allows(account({}))).toBe(true);
  });

  it('counts a run’s limit per run, and starts a new UTC day afresh while the month carries on', async () => {
    const { clock, ledger, account } = setup();
    await ledger.record(account({ maxUsdPerRun: 0.001 }), usage(1_000), 'm');
    expect(await ledger.allows(account({ maxUsdPerRun: 0.001 }))).toBe(false);
    expect(await ledger.allows(account({ maxUsdPerRun: 0.001 }, 'job-2'))).toBe(true);
    expect(await ledger.allows(account({ maxUsdPerDay: 0.001 }))).toBe(false);
    clock.advance(3_600_000); // 2026-05-05T00:00Z
    expect(await ledger.allows(account({ maxUsdPerDay: 0.001 }))).toBe(true);
    expect(await ledger.allows(account({ maxUsdPerMonth: 0.001 }))).toBe(false);
    const summary = await ledger.summary('sub:alice', account({ maxUsdPerDay: 0.001 }).budget);
    expect(summary).toEqual({
      currency: 'USD',
      limits: { perRun: null, perDay: 0.001, perMonth: null },
      day: { spentUsd: 0, resetsAt: '2026-05-06T00:00:00.000Z' },
      month: { spentUsd: 0.001, resetsAt: '2026-06-01T00:00:00.000Z' },
    });
  });

  it('announces 80 % of a limit exactly once per period, on the call that crosses it', async () => {
    const { ledger, account, audited, events } = setup();
    const capped = account({ maxUsdPerDay: 0.01 });
    for (let i = 0; i < 5; i += 1) await ledger.record(capped, usage(2_000), 'm'); // 0.002 … 0.010: 0.008 crosses
    expect(events).toEqual([{ type: 'spend.threshold', ownerId: 'sub:alice', data: { period: 'day', status: 'ThresholdCrossed', url: '/api/spend' } }]);
    expect(audited).toEqual([expect.objectContaining({ event: 'spend.threshold', owner: 'sub:alice', period: 'day', periodKey: 'day:2026-05-04', limitUsd: 0.01, spentUsd: 0.008 })]);
    // A raised limit crossed again in the same period does not announce twice.
    const raised = account({ maxUsdPerDay: 0.02 });
    for (let i = 0; i < 4; i += 1) await ledger.record(raised, usage(2_000), 'm'); // 0.012 … 0.018: 0.016 crosses
    expect(audited).toHaveLength(1);
  });

  it('writes nothing for a call that costs nothing', async () => {
    const { ledger, account } = setup();
    expect(await ledger.record(account({ maxUsdPerDay: 1 }), usage(0), 'm')).toBe(0);
    expect((await ledger.summary('sub:alice', NO_BUDGET)).day.spentUsd).toBe(0);
  });
});
